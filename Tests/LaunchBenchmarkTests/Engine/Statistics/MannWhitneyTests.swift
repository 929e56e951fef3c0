import LaunchBenchmark
import Testing

/// Mann–Whitney U p-values against SciPy 1.17.1,
/// `scipy.stats.mannwhitneyu(x, y, alternative="two-sided")` (method "auto"),
/// computed once and written here.
@Suite("Mann–Whitney U")
struct MannWhitneyTests {
    @Test("exact distribution for a small sample without ties")
    func exact() throws {
        let test = try #require(MannWhitneyU([1.1, 2.2, 3.3, 4.4, 5.5], [2.5, 6.1, 7.2, 8.3, 9.4, 10.5]))
        #expect(test.method == .exact)
        #expect(test.u == 3)
        #expect(abs(test.pValue - 0.030303030303030304) < 1e-12)
        // scipy: mannwhitneyu([3, 1, 2], [6, 5, 4, 7], method="exact") -> U 0, p 0.05714285714285714 (= 2 / 35)
        let tiny = try #require(MannWhitneyU([3, 1, 2], [6, 5, 4, 7]))
        #expect(tiny.u == 0)
        #expect(abs(tiny.pValue - 0.05714285714285714) < 1e-12)
    }

    @Test("normal approximation with ties: tie and continuity corrections")
    func ties() throws {
        let test = try #require(MannWhitneyU([1, 2, 2, 3, 3, 3, 4, 5, 6, 7], [3, 4, 4, 5, 6, 6, 7, 8, 9, 9]))
        #expect(test.method == .asymptotic)
        #expect(test.u == 18.5)
        #expect(abs(test.pValue - 0.01812743104340377) < 1e-9)
    }

    @Test("large separated samples and identical samples")
    func extremes() throws {
        let separated = try #require(MannWhitneyU((1...20).map(Double.init), (15...34).map(Double.init)))
        #expect(separated.u == 18)
        #expect(abs(separated.pValue - 9.062536857237724e-07) < 1e-12)
        let same = try #require(MannWhitneyU(Array(repeating: 1, count: 9), Array(repeating: 1, count: 9)))
        #expect(same.u == 40.5)
        #expect(same.pValue == 1)
        let ten = try #require(
            MannWhitneyU(
                [10.2, 11.5, 9.8, 10.9, 12.1, 10.4, 11.0, 10.7, 9.9, 10.1],
                [11.3, 12.4, 11.9, 12.8, 11.1, 13.0, 12.2, 11.7, 12.5, 12.0]))
        #expect(ten.u == 7)
        #expect(abs(ten.pValue - 0.0013149446697132139) < 1e-12)
    }

    @Test("symmetric in its samples; nil for an empty one")
    func symmetry() throws {
        let a: [Double] = [5, 7, 9, 11, 13, 2, 4, 8, 10]
        let b: [Double] = [6, 12, 14, 15, 16, 17, 1, 3]
        let ab = try #require(MannWhitneyU(a, b)), ba = try #require(MannWhitneyU(b, a))
        #expect(ab.pValue == ba.pValue)
        #expect(ab.u + ba.u == Double(a.count * b.count))
        #expect(MannWhitneyU([], [1]) == nil)
    }
}

@Suite("Summary statistics and bootstrap ratios")
struct SummaryStatisticTests {
    @Test("each statistic of a known sample (R-7 quantiles)")
    func statistics() throws {
        let values: [Double] = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5]
        #expect(SummaryStatistic.min.value(of: values) == 1)
        #expect(SummaryStatistic.max.value(of: values) == 10)
        #expect(SummaryStatistic.mean.value(of: values) == 5.5)
        #expect(SummaryStatistic.p50.value(of: values) == 5.5)
        // numpy.percentile(range(1, 11), [90, 95, 99]) -> 9.1, 9.55, 9.91
        #expect(abs(SummaryStatistic.p90.value(of: values)! - 9.1) < 1e-12)
        #expect(abs(SummaryStatistic.p95.value(of: values)! - 9.55) < 1e-12)
        #expect(abs(SummaryStatistic.p99.value(of: values)! - 9.91) < 1e-12)
        #expect(SummaryStatistic.p50.value(of: []) == nil)
        #expect(SummaryStatistic(parsing: "median") == .p50)
        #expect(SummaryStatistic(parsing: "p42") == nil)
    }

    @Test("bootstrap ratio: point estimate inside its interval, reproducible")
    func bootstrap() throws {
        let a = (0..<30).map { 110 + Double($0 % 7) }
        let b = (0..<30).map { 100 + Double($0 % 5) }
        let ratio = try #require(BootstrapRatio(a, over: b, statistic: .p90))
        #expect(ratio.ratio == SummaryStatistic.p90.value(of: a)! / SummaryStatistic.p90.value(of: b)!)
        #expect(ratio.low <= ratio.ratio && ratio.ratio <= ratio.high)
        #expect(ratio.low > 1)
        #expect(BootstrapRatio(a, over: b, statistic: .p90) == ratio)
        #expect(BootstrapRatio(a, over: [0, 0], statistic: .p50) == nil)
    }
}
