import LaunchSupport

/// How one budget fared for one target and mode: stored in results
/// (`budgets`) and shown in every report.
public struct BudgetEvaluation: Sendable, Equatable, Codable {
    /// The target the budget limits.
    public var target: String
    /// The mode of the runs checked.
    public var mode: LaunchMode
    /// `Metric.key`.
    public var metric: String
    /// The statistic checked.
    public var statistic: SummaryStatistic
    /// The limit as written ("<= 40.0 ms", "<= 1.2x hello-c").
    public var limit: String
    /// The limit in the metric's base unit; for a ratio, the factor times the
    /// reference's statistic in this run. nil when it could not be computed.
    public var limitValue: Double?
    /// The statistic measured, in the metric's base unit; nil when not measured.
    public var observed: Double?
    /// For a ratio budget: the reference target and the measured ratio.
    public var reference: String?
    /// The observed statistic over the reference's, for a ratio budget.
    public var ratio: Double?
    /// Whether the budget was met.
    public var passed: Bool
    /// One line for people: "12.3 ms <= 40.0 ms" or why it failed.
    public var message: String
    /// Where the budget was written, if in a file.
    public var source: String?

    /// An evaluation, as `BudgetEvaluator` makes them.
    public init(
        target: String, mode: LaunchMode, metric: String, statistic: SummaryStatistic, limit: String,
        limitValue: Double?, observed: Double?, reference: String? = nil, ratio: Double? = nil, passed: Bool,
        message: String, source: String? = nil
    ) {
        self.target = target
        self.mode = mode
        self.metric = metric
        self.statistic = statistic
        self.limit = limit
        self.limitValue = limitValue
        self.observed = observed
        self.reference = reference
        self.ratio = ratio
        self.passed = passed
        self.message = message
        self.source = source
    }

    /// "sample-app (warm) wall_to_ready p95 <= 40.0 ms".
    public var title: String { "\(target) (\(mode.rawValue)) \(metric) \(statistic) \(limit)" }
}
