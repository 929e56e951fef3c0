import LaunchProfFormat

/// What the ring did when it was full.
package enum TraceOverflowPolicy: UInt32, Sendable, Equatable, CustomStringConvertible {
    /// Events that do not fit are dropped.
    case dropNewest = 0
    /// The oldest events are overwritten.
    case overwriteOldest = 1

    /// The spelling LAUNCHPROF_BUFFER_POLICY uses.
    package var description: String {
        switch self {
        case .dropNewest: "drop-newest"
        case .overwriteOldest: "overwrite-oldest"
        }
    }
}
