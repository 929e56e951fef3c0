import LaunchAnalysis

/// What to check for regressions: a metric's statistic and its threshold.
package struct RegressionCheck: Sendable, Equatable {
    /// The metric compared.
    package var metric: Metric
    /// The statistic compared.
    package var statistic: SummaryStatistic
    /// 0.05 = worse by more than 5%; nil: the comparer's global threshold.
    package var threshold: Double?

    /// A check of `statistic` of `metric`, with its own `threshold` (nil: the comparer's).
    package init(metric: Metric, statistic: SummaryStatistic = .p50, threshold: Double? = nil) {
        self.metric = metric
        self.statistic = statistic
        self.threshold = threshold
    }
}
