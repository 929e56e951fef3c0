import LaunchEngine

extension BenchmarkResult {
    /// The median run by the headline metric: the run at the middle rank
    /// among the successful runs (the lower middle for an even count, so it
    /// is a run that happened, not an average of two). Ties keep run order.
    /// nil when no successful run measured the metric.
    package var medianRun: RunMeasurement? {
        let metric = headlineMetric
        let ranked = successfulRuns.compactMap { run in metric.value(in: run).map { (run, $0) } }
            .enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
        guard !ranked.isEmpty else { return nil }
        return ranked[(ranked.count - 1) / 2].element.0
    }

    /// "3 of 20 runs failed: exited with status 1 (2), timed out (1)", or nil.
    package var failureSummary: String? {
        let failed = runs.filter { !$0.exit.isSuccess }
        guard !failed.isEmpty else { return nil }
        var counts: [(String, Int)] = []
        for run in failed {
            let text = run.exit.description
            if let index = counts.firstIndex(where: { $0.0 == text }) { counts[index].1 += 1 } else { counts.append((text, 1)) }
        }
        let reasons = counts.map { counts.count == 1 ? $0.0 : "\($0.0) (\($0.1))" }.joined(separator: ", ")
        return "\(failed.count) of \(runs.count) runs failed: \(reasons)"
    }
}
