import LaunchEngine

extension HTMLReport {
    /// The results' own comparison, unless `baseline` is another one: then
    /// time to ready and every milestone, target by target, compared afresh
    /// (relative to the results' reference, as `run --baseline` would).
    static func comparison(
        of document: ResultsDocument, with baseline: ResultsDocument?, named name: String
    ) -> BaselineComparison? {
        guard let baseline else { return document.comparison }
        if let existing = document.comparison, existing.baselineDate == baseline.date { return existing }
        return BaselineComparer().compare(baseline: baseline, current: document, baselineName: name) { result in
            DistributionSeries.timeMetrics(of: [result]).map { RegressionCheck(metric: $0) }
        }
    }
}
