extension HTMLReport {
    /// The results' own comparison, unless `baseline` is another one: then
    /// time to ready and every milestone, target by target, compared afresh.
    static func comparison(
        of document: ResultsDocument, with baseline: ResultsDocument?, named name: String
    ) -> BaselineComparison? {
        guard let baseline else { return document.comparison }
        if let existing = document.comparison, existing.baselineDate == baseline.date { return existing }
        let comparer = BaselineComparer()
        // The comparer's own pass gives the warnings (machine, version,
        // targets on one side only); the changes are taken per metric.
        var comparison = comparer.compare(baseline: baseline, current: document, baselineName: name)
        var unused: [String] = []
        let references = comparison.reference.map {
            BaselineComparer.referencePairs($0, baseline: baseline, current: document, warnings: &unused)
        } ?? [:]
        let changes = { (result: BenchmarkResult, reference: BaselineComparer.ReferencePair?) -> [MetricChange] in
            guard let old = baseline.results.first(where: { $0.target.name == result.target.name && $0.mode == result.mode })
            else { return [] }
            return DistributionSeries.timeMetrics(of: [result]).compactMap { metric in
                comparer.compare(RegressionCheck(metric: metric), old, result, relativeTo: reference)
            }
        }
        let isReference = { (result: BenchmarkResult) in result.target.name == comparison.reference }
        comparison.changes = document.results.filter { !isReference($0) }.flatMap { changes($0, references[$0.mode]) }
        if comparison.reference != nil {
            comparison.drift = document.results.filter(isReference).flatMap { changes($0, nil) }
        }
        return comparison
    }
}
