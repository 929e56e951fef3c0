/// What a benchmark produced, complete or not.
package struct MeasuredRuns: Sendable {
    /// One per target and mode, in plan order, with summaries and warnings.
    package var results: [BenchmarkResult]
    /// SIGINT stopped the benchmark; results hold the runs measured before.
    package var interrupted: Bool
    /// The run that stopped the benchmark by failing, if one did.
    package var failure: RunFailure?

    /// What the runner measured, and what stopped it if anything did.
    package init(results: [BenchmarkResult], interrupted: Bool = false, failure: RunFailure? = nil) {
        self.results = results
        self.interrupted = interrupted
        self.failure = failure
    }
}
