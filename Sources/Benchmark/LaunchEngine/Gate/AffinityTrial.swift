/// One setting the affinity pilot tried (`gate --affinity auto`,
/// `AffinityPilot`): where the runs went, how fast each side was there,
/// and how wide the gate's interval of their pairs was.
public struct AffinityTrial: Sendable, Equatable, Codable {
    /// The CPUs ("0", "2-3"); nil: unpinned, where the scheduler put them.
    public var cpus: String?
    /// Base/head pairs measured in this setting (each pair one base and one
    /// head run, next to each other in time).
    public var pairs: Int
    /// The base's median time to ready here, in nanoseconds.
    public var baseMedian: Double
    /// The head's median time to ready here, in nanoseconds.
    public var headMedian: Double
    /// The width of the gate's interval of these pairs at 90% (the wider
    /// of the median-type and the trimmed mean's), as a fraction: what a
    /// look at this many pairs would resolve here; nil: too few pairs for
    /// one.
    public var width: Double?

    /// A trial of `cpus`.
    public init(cpus: String?, pairs: Int, baseMedian: Double, headMedian: Double, width: Double?) {
        self.cpus = cpus
        self.pairs = pairs
        self.baseMedian = baseMedian
        self.headMedian = headMedian
        self.width = width
    }
}
