import LaunchEngine

/// Every run's value of one metric for one target and mode, with the
/// summary the results hold for it: one strip of a distribution chart.
package struct DistributionSeries: Sendable {
    package var metric: Metric
    package var mode: LaunchMode
    /// From the baseline rather than the current results.
    package var isBaseline: Bool
    /// (1-based run number, value) for each successful run that measured the metric.
    package var values: [(run: Int, value: Double)]
    /// The results' own summary (median, p90) of the metric, when there is one.
    package var summary: MetricSummary?
    package var totalRuns: Int
    package var failureSummary: String?

    package init(metric: Metric, result: BenchmarkResult, isBaseline: Bool) {
        self.metric = metric
        mode = result.mode
        self.isBaseline = isBaseline
        values = result.successfulRuns.compactMap { run in metric.value(in: run).map { (run.index + 1, $0) } }
        summary = result.summaries[metric.key]
        totalRuns = result.runs.count
        failureSummary = result.failureSummary
    }

    /// "warm", "baseline warm".
    package var label: String { isBaseline ? "baseline \(mode.rawValue)" : mode.rawValue }

    /// The middle half of the runs, p25…p75 (R type 7, as the summaries).
    package var quartiles: (low: Double, high: Double)? {
        let sorted = values.map(\.value).sorted()
        guard let low = Statistics.quantile(sorted: sorted, 0.25), let high = Statistics.quantile(sorted: sorted, 0.75) else {
            return nil
        }
        return (low, high)
    }

    /// The time metrics of `results` in report order (headline first, then
    /// process entry, main, milestones and lifecycle durations), over all modes.
    package static func timeMetrics(of results: [BenchmarkResult]) -> [Metric] { Metric.perRunTimes(of: results) }
}
