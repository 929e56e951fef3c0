/// Percentile-bootstrap confidence interval of the difference of a
/// statistic of two independent samples, statistic(a) − statistic(b): how
/// the attribution of a change puts an interval on a part's own change, in
/// its own unit (BootstrapRatio does the same for ratios). Seeded, so the
/// same samples always give the same interval.
package struct BootstrapDifference: Sendable, Equatable {
    /// statistic(a) − statistic(b) of the samples themselves.
    package var difference: Double
    /// The lower end of the difference's confidence interval.
    package var low: Double
    /// The upper end of the difference's confidence interval.
    package var high: Double

    /// nil when a sample is empty.
    package init?(
        _ a: [Double], minus b: [Double], statistic: SummaryStatistic = .p50, confidence: Double = 0.95,
        resamples: Int = 2000, seed: UInt64 = BootstrapRatio.defaultSeed
    ) {
        guard let valueA = statistic.value(of: a), let valueB = statistic.value(of: b) else { return nil }
        var generator = SeededGenerator(seed: seed)
        var differences: [Double] = []
        differences.reserveCapacity(resamples)
        var scratch: [Double] = []
        func resample(_ values: [Double]) -> Double {
            scratch.removeAll(keepingCapacity: true)
            for _ in values.indices { scratch.append(values[Int.random(in: 0..<values.count, using: &generator)]) }
            return statistic.value(of: scratch)!  // non-empty
        }
        for _ in 0..<resamples { differences.append(resample(a) - resample(b)) }
        differences.sort()
        let tail = (1 - confidence) / 2
        difference = valueA - valueB
        low = Statistics.quantile(sorted: differences, tail) ?? difference
        high = Statistics.quantile(sorted: differences, 1 - tail) ?? difference
    }
}
