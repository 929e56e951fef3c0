/// One setting the affinity pilot tried (`gate --affinity auto`,
/// `AffinityPilot`): where the runs went and how fast each side was there.
public struct AffinityTrial: Sendable, Equatable, Codable {
    /// The CPUs ("0", "2-3"); nil: unpinned, where the scheduler put them.
    public var cpus: String?
    /// Runs of each side measured in this setting.
    public var runs: Int
    /// The base's median time to ready here, in nanoseconds.
    public var baseMedian: Double
    /// The head's median time to ready here, in nanoseconds.
    public var headMedian: Double

    /// A trial of `cpus`.
    public init(cpus: String?, runs: Int, baseMedian: Double, headMedian: Double) {
        self.cpus = cpus
        self.runs = runs
        self.baseMedian = baseMedian
        self.headMedian = headMedian
    }
}
