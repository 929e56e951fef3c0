/// One metric compared between a baseline and the current results, as the
/// report shows it: both values, the relative change and, when a
/// significance test was run, its interval, p-value and verdict.
package struct ChangeRow: Sendable, Equatable {
    package enum Verdict: String, Sendable, Equatable {
        case regressed, improved, unchanged
    }

    package var target: String
    package var mode: LaunchMode
    package var metric: Metric
    /// "median", "p90", … : what `baseline` and `current` are.
    package var statistic: String
    package var baseline: Double
    package var current: Double
    /// (current − baseline) / baseline.
    package var relativeChange: Double
    /// Confidence interval of the relative change, when tested.
    package var interval: ClosedRange<Double>?
    package var pValue: Double?
    /// nil when the change was not tested for significance.
    package var verdict: Verdict?

    package init(
        target: String, mode: LaunchMode, metric: Metric, statistic: String, baseline: Double, current: Double,
        interval: ClosedRange<Double>? = nil, pValue: Double? = nil, verdict: Verdict? = nil
    ) {
        self.target = target
        self.mode = mode
        self.metric = metric
        self.statistic = statistic
        self.baseline = baseline
        self.current = current
        relativeChange = baseline == 0 ? 0 : (current - baseline) / baseline
        self.interval = interval
        self.pValue = pValue
        self.verdict = verdict
    }

    /// Median changes of every time metric that both documents measured for
    /// the same target and mode, in the current document's order. Untested:
    /// no interval, p-value or verdict.
    package static func medianChanges(current: ResultsDocument, baseline: ResultsDocument) -> [ChangeRow] {
        current.results.flatMap { result -> [ChangeRow] in
            guard let before = baseline.results.first(where: { $0.target.name == result.target.name && $0.mode == result.mode })
            else { return [] }
            return DistributionSeries.timeMetrics(of: [result]).compactMap { metric in
                guard let old = before.summaries[metric.key], let new = result.summaries[metric.key] else { return nil }
                return ChangeRow(
                    target: result.target.name, mode: result.mode, metric: metric, statistic: "median",
                    baseline: old.median, current: new.median)
            }
        }
    }
}
