import LaunchAnalysis

/// What to check for regressions: a metric's statistic and its threshold.
public struct RegressionCheck: Sendable, Equatable {
    /// The metric compared.
    public var metric: Metric
    /// The statistic compared.
    public var statistic: SummaryStatistic
    /// 0.05 = worse by more than 5%; nil: the comparer's global threshold.
    public var threshold: Double?

    /// A check of `statistic` of `metric`, with its own `threshold` (nil: the comparer's).
    public init(metric: Metric, statistic: SummaryStatistic = .p50, threshold: Double? = nil) {
        self.metric = metric
        self.statistic = statistic
        self.threshold = threshold
    }
}
