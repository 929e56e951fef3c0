/// Makes the next run of a target cold: evicts its files from the page cache
/// and reports their residency just before the run.
public protocol ColdCachePreparer: Sendable {
    /// Called before every cold run (warm-ups included).
    func prepare(target: LaunchTarget) throws -> ResidencyReport?
}

extension ColdCache: ColdCachePreparer {}
