import LaunchEngine

/// What every tabular report shows for one `BenchmarkResult`: the headline
/// launch time, resources, milestone sub-rows and the comparison with the
/// reference target. Terminal and Markdown reports format the same rows.
package struct ReportRow: Sendable {
    /// The result the row shows.
    package var result: BenchmarkResult
    /// Time to ready, or time to exit when no run reported ready.
    package var primary: Metric
    /// The primary metric's summary.
    package var summary: MetricSummary?
    /// Pre-main, main and each milestone, in report order, when traced.
    package var details: [(metric: Metric, summary: MetricSummary)]
    /// Against the reference target in the same mode; nil for the reference
    /// itself, or without one.
    package var comparison: RelativeComparison?
    /// Whether this is the reference target's row.
    package var isReference: Bool

    /// How many runs succeeded.
    package var successfulRuns: Int { result.runs.filter(\.exit.isSuccess).count }

    /// "28/30" when runs failed, "30" otherwise.
    package var runsText: String {
        successfulRuns == result.runs.count ? "\(result.runs.count)" : "\(successfulRuns)/\(result.runs.count)"
    }

    /// The summary of another metric (CPU, RSS, faults) of this result.
    package func resource(_ metric: Metric) -> MetricSummary? { result.summaries[metric.key] }

    /// The document's results grouped by mode (in the order modes first
    /// appear), each row compared with the reference target of its mode.
    package static func rowsByMode(_ document: ResultsDocument) -> [(mode: LaunchMode, rows: [ReportRow])] {
        var modes: [LaunchMode] = []
        for result in document.results where !modes.contains(result.mode) { modes.append(result.mode) }
        return modes.map { mode in
            let results = document.results.filter { $0.mode == mode }
            let reference = results.first { $0.target.name == document.reference }
            return (mode, results.map { ReportRow(result: $0, reference: reference) })
        }
    }

    /// A row for `result`, compared with `reference` when given.
    package init(result: BenchmarkResult, reference: BenchmarkResult?) {
        self.result = result
        let hasReady = result.summaries[Metric.wallToReady.key] != nil
        primary = hasReady || result.summaries[Metric.wallToExit.key] == nil ? .wallToReady : .wallToExit
        summary = result.summaries[primary.key]
        details = Summarizer.metrics(measuredBy: result.runs.filter(\.exit.isSuccess)).compactMap { metric in
            switch metric {
            case .processEntry, .main, .milestone, .firstResponseByte, .warmRequest, .timeToSuspend, .timeToResume,
                .timeToShutdown:
                result.summaries[metric.key].map { (metric, $0) }
            default: nil
            }
        }
        isReference = reference.map { $0.target == result.target && $0.mode == result.mode } ?? false
        comparison = isReference ? nil : reference.flatMap { Self.compare(result, with: $0, on: primary) }
    }

    /// Ratio of medians of `metric` over the successful runs of both results.
    package static func compare(
        _ result: BenchmarkResult, with reference: BenchmarkResult, on metric: Metric
    )
        -> RelativeComparison?
    {
        func values(_ result: BenchmarkResult) -> [Double] {
            result.runs.filter(\.exit.isSuccess).compactMap { metric.value(in: $0) }
        }
        return RelativeComparison(target: values(result), reference: values(reference))
    }
}
