extension MetricSummary {
    /// Summarizes a sample; nil for an empty one.
    ///
    /// One value: every statistic is that value, the standard deviation and
    /// MAD are 0 (not NaN, so JSON stays valid) and the confidence interval is
    /// the value itself. Up to 5 values: the median's interval is [min, max],
    /// which covers less than 95% (see `MedianConfidenceInterval`).
    public init?(values: [Double], confidence: Double = 0.95) {
        guard !values.isEmpty, let ranks = MedianConfidenceInterval.ranks(count: values.count, confidence: confidence)
        else { return nil }
        let sorted = values.sorted()
        // Force-unwraps below are safe: every statistic is defined for a non-empty sample.
        let interval = ranks.bounds(in: sorted)
        self.init(
            count: sorted.count,
            median: Statistics.quantile(sorted: sorted, 0.5)!,
            mean: Statistics.mean(sorted)!,
            standardDeviation: Statistics.standardDeviation(sorted) ?? 0,
            min: sorted[0],
            max: sorted[sorted.count - 1],
            p90: Statistics.quantile(sorted: sorted, 0.90)!,
            p95: Statistics.quantile(sorted: sorted, 0.95)!,
            p99: Statistics.quantile(sorted: sorted, 0.99)!,
            mad: Statistics.medianAbsoluteDeviation(sorted)!,
            medianLow: interval.low,
            medianHigh: interval.high
        )
    }

    /// Half the width of the median's confidence interval relative to the
    /// median, e.g. 0.02 for ±2%; infinity when the median is 0.
    public var relativeHalfWidth: Double {
        guard median != 0 else { return .infinity }
        return (medianHigh - medianLow) / 2 / abs(median)
    }
}
