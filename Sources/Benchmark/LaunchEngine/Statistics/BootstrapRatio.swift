/// Percentile-bootstrap confidence interval of the ratio of a statistic of
/// two independent samples, statistic(a) / statistic(b) (Efron & Tibshirani,
/// *An Introduction to the Bootstrap*, 1993, ch. 13): resample each sample
/// with replacement, independently, `resamples` times, and take the tail
/// quantiles of the resampled ratios. The generator has a fixed seed, so the
/// same samples always give the same interval.
package struct BootstrapRatio: Sendable, Equatable {
    /// statistic(a) / statistic(b) of the samples themselves.
    package var ratio: Double
    /// The lower end of the ratio's confidence interval.
    package var low: Double
    /// The upper end of the ratio's confidence interval.
    package var high: Double
    /// The interval's confidence level.
    package var confidence: Double

    /// The seed that makes the resampling repeatable by default.
    package static let defaultSeed: UInt64 = 0x6C61_756E_6368  // "launch"

    /// nil when a sample is empty or statistic(b) is 0 (no ratio exists).
    package init?(
        _ a: [Double], over b: [Double], statistic: SummaryStatistic = .p50, confidence: Double = 0.95,
        resamples: Int = 2000, seed: UInt64 = BootstrapRatio.defaultSeed
    ) {
        guard let valueA = statistic.value(of: a), let valueB = statistic.value(of: b), valueB != 0 else { return nil }
        var generator = SeededGenerator(seed: seed)
        var ratios: [Double] = []
        ratios.reserveCapacity(resamples)
        var scratch: [Double] = []
        for _ in 0..<resamples {
            let resampledA = Self.resample(a, statistic, into: &scratch, using: &generator)
            let resampledB = Self.resample(b, statistic, into: &scratch, using: &generator)
            // A resample of b can have statistic 0 even when b does not; such
            // a ratio is undefined, so skip it.
            if resampledB != 0 { ratios.append(resampledA / resampledB) }
        }
        ratios.sort()
        let tail = (1 - confidence) / 2
        ratio = valueA / valueB
        low = Statistics.quantile(sorted: ratios, tail) ?? ratio
        high = Statistics.quantile(sorted: ratios, 1 - tail) ?? ratio
        self.confidence = confidence
    }

    private static func resample(
        _ values: [Double], _ statistic: SummaryStatistic, into scratch: inout [Double],
        using generator: inout SeededGenerator
    ) -> Double {
        scratch.removeAll(keepingCapacity: true)
        for _ in values.indices { scratch.append(values[Int.random(in: 0..<values.count, using: &generator)]) }
        return statistic.value(of: scratch)!  // non-empty: values is non-empty
    }
}
