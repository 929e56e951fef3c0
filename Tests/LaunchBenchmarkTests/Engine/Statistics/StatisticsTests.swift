import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// Expected values were computed once on the development machine with
/// numpy 2.4.6 / scipy 1.17.1 (np.median, np.mean, np.std(ddof=1),
/// np.quantile with the default method="linear" = R type 7,
/// scipy.stats.median_abs_deviation(scale=1), scipy.stats.binom.cdf for the
/// median's confidence ranks, scipy.stats.norm.ppf) and written in here.
@Suite struct StatisticsTests {
    let sample = [12.1, 15.3, 11.8, 14.0, 13.2, 19.7, 12.9, 13.5, 14.8, 12.4]

    private func close(_ a: Double?, _ b: Double, tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }

    @Test func descriptiveStatisticsMatchNumpy() {
        #expect(close(Statistics.median(sample), 13.35))
        #expect(close(Statistics.mean(sample), 13.97))
        #expect(close(Statistics.standardDeviation(sample), 2.307499849524492))
        #expect(close(Statistics.medianAbsoluteDeviation(sample), 1.1))
    }

    @Test func quantilesAreRType7() {
        let sorted = sample.sorted()
        #expect(close(Statistics.quantile(sorted: sorted, 0.90), 15.74))
        #expect(close(Statistics.quantile(sorted: sorted, 0.95), 17.72))
        #expect(close(Statistics.quantile(sorted: sorted, 0.99), 19.304))
        #expect(close(Statistics.quantile(sorted: sorted, 0.25), 12.525))
        #expect(Statistics.quantile(sorted: sorted, 0) == 11.8)
        #expect(Statistics.quantile(sorted: sorted, 1) == 19.7)
    }

    @Test func edgeCases() {
        #expect(Statistics.mean([]) == nil)
        #expect(Statistics.median([]) == nil)
        #expect(Statistics.medianAbsoluteDeviation([]) == nil)
        #expect(Statistics.quantile(sorted: [], 0.5) == nil)
        #expect(Statistics.standardDeviation([4]) == nil)
        #expect(Statistics.quantile(sorted: [4], 0.99) == 4)
        #expect(Statistics.median([1, 2]) == 1.5)
        // All equal: no spread at all, MAD == 0.
        #expect(Statistics.standardDeviation([7, 7, 7]) == 0)
        #expect(Statistics.medianAbsoluteDeviation([7, 7, 7]) == 0)
        // More than half equal: MAD == 0 although the values differ.
        #expect(Statistics.medianAbsoluteDeviation([5, 5, 5, 9, 100]) == 0)
    }

    @Test(arguments: [
        // n, lower rank, upper rank, coverage (scipy.stats.binom.cdf)
        (6, 1, 6, 0.96875), (10, 2, 9, 0.978515625), (20, 6, 15, 0.9586105346679688),
        (30, 10, 21, 0.9572260547429323), (50, 18, 33, 0.9671608624357315),
        (100, 40, 61, 0.9647997997822951), (1000, 469, 532, 0.9537088026395019),
    ])
    func medianConfidenceRanksMatchBinomialTable(n: Int, lower: Int, upper: Int, coverage: Double) throws {
        let ranks = try #require(MedianConfidenceInterval.ranks(count: n))
        #expect(ranks.lowerRank == lower)
        #expect(ranks.upperRank == upper)
        #expect(close(ranks.coverage, coverage, tolerance: 1e-9))
    }

    @Test func tinySamplesFallBackToMinMaxWithHonestCoverage() throws {
        #expect(MedianConfidenceInterval.ranks(count: 0) == nil)
        let one = try #require(MedianConfidenceInterval.ranks(count: 1))
        #expect(one.lowerRank == 1 && one.upperRank == 1 && one.coverage == 0)
        let five = try #require(MedianConfidenceInterval.ranks(count: 5))
        #expect(five.lowerRank == 1 && five.upperRank == 5)
        #expect(close(five.coverage, 0.9375))  // 1 - 2/32: below 95%, and said so
    }

    @Test func normalApproximationForLargeSamples() throws {
        // scipy: floor(n/2 - z·√n/2), ceil(1 + n/2 + z·√n/2) with z = norm.ppf(0.975);
        // the exact binomial ranks for n = 2000 are the same (956, 1045).
        #expect(close(MedianConfidenceInterval.standardNormalQuantile(0.975), 1.959963984540054, tolerance: 1e-12))
        #expect(close(MedianConfidenceInterval.standardNormalQuantile(0.995), 2.5758293035489004, tolerance: 1e-12))
        let ranks = try #require(MedianConfidenceInterval.ranks(count: 2000))
        #expect(ranks.lowerRank == 956 && ranks.upperRank == 1045)
        #expect(abs(ranks.coverage - 0.9534471795082164) < 0.002)
        let exact = MedianConfidenceInterval.exactRanks(count: 2000, confidence: 0.95)
        #expect(exact.lowerRank == 956 && exact.upperRank == 1045)
        let approximate = MedianConfidenceInterval.normalApproximationRanks(count: 100, confidence: 0.95)
        #expect(approximate.lowerRank == 40 && approximate.upperRank == 61)
    }

    @Test func metricSummaryOfASample() throws {
        let summary = try #require(MetricSummary(values: sample))
        #expect(summary.count == 10)
        #expect(close(summary.median, 13.35))
        #expect(summary.min == 11.8 && summary.max == 19.7)
        #expect(close(summary.p95, 17.72))
        // n = 10: ranks 2 and 9 of the sorted sample.
        #expect(summary.medianLow == 12.1 && summary.medianHigh == 15.3)
        #expect(MetricSummary(values: []) == nil)
    }

    @Test func metricSummaryOfOneValueHasNoNaN() throws {
        let summary = try #require(MetricSummary(values: [42]))
        #expect(summary.median == 42 && summary.mean == 42 && summary.p99 == 42)
        #expect(summary.standardDeviation == 0 && summary.mad == 0)
        #expect(summary.medianLow == 42 && summary.medianHigh == 42)
    }

    @Test func outliersBeyondFiveMADs() {
        // median 10, MAD 1: 16 is 6 MADs away, 14.9 is 4.9.
        let values = [10, 9, 11, 10, 9, 11, 10, 16, 14.9, 10, 9, 11]
        #expect(OutlierDetection().outlierPositions(in: values) == [7])
        #expect(OutlierDetection().outlierPositions(in: [7, 7, 7, 7]) == [])
        // MAD == 0 leaves no scale: nothing is called an outlier.
        #expect(OutlierDetection().outlierPositions(in: [5, 5, 5, 9, 100]) == [])
        #expect(OutlierDetection.modifiedZScore(16, median: 10, mad: 1) == 0.6745 * 6)
        #expect(OutlierDetection.modifiedZScore(16, median: 10, mad: 0) == nil)
    }
}
