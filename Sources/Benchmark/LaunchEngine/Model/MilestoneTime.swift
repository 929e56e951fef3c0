import LaunchAnalysis

/// A traced milestone's time since spawn.
public struct MilestoneTime: Sendable, Equatable, Codable {
    /// The milestone's name.
    public var name: String
    /// From the spawn to the milestone.
    public var nanoseconds: UInt64

    /// A milestone `name` reached `nanoseconds` after the spawn.
    public init(name: String, nanoseconds: UInt64) {
        self.name = name
        self.nanoseconds = nanoseconds
    }
}
