import LaunchProfFormat

/// Summary statistics of one metric over the measured runs.
public struct MetricSummary: Sendable, Equatable, Codable {
    /// The number of runs summarised.
    public var count: Int
    /// The median (p50).
    public var median: Double
    /// The arithmetic mean.
    public var mean: Double
    /// The sample standard deviation.
    public var standardDeviation: Double
    /// The smallest value.
    public var min: Double
    /// The largest value.
    public var max: Double
    /// The 90th percentile.
    public var p90: Double
    /// The 95th percentile.
    public var p95: Double
    /// The 99th percentile.
    public var p99: Double
    /// Median absolute deviation (unscaled).
    public var mad: Double
    /// 95% confidence interval of the median (order statistics).
    public var medianLow: Double
    /// The upper end of the median's 95% confidence interval.
    public var medianHigh: Double

    /// A summary with these values, in the metric's unit.
    public init(
        count: Int, median: Double, mean: Double, standardDeviation: Double, min: Double, max: Double,
        p90: Double, p95: Double, p99: Double, mad: Double, medianLow: Double, medianHigh: Double
    ) {
        self.count = count
        self.median = median
        self.mean = mean
        self.standardDeviation = standardDeviation
        self.min = min
        self.max = max
        self.p90 = p90
        self.p95 = p95
        self.p99 = p99
        self.mad = mad
        self.medianLow = medianLow
        self.medianHigh = medianHigh
    }
}
