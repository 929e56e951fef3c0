/// Makes the next run of a target cold: evicts its files from the page cache
/// and reports their residency just before the run, and again just after it
/// (what the launch read from disk).
package protocol ColdCachePreparer: Sendable {
    /// Called before every cold run (warm-ups included).
    func prepare(target: LaunchTarget) throws -> ResidencyReport?
    /// Called after every cold run with what ``prepare(target:)`` returned:
    /// the same report with each file's residency after the run.
    func measureAfterRun(_ report: ResidencyReport) -> ResidencyReport
}

extension ColdCachePreparer {
    package func measureAfterRun(_ report: ResidencyReport) -> ResidencyReport { report }
}

extension PageCacheEvictor: ColdCachePreparer {}
