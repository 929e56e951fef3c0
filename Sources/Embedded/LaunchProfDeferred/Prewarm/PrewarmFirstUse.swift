import LaunchProf

/// How an item's value was first asked for.
public enum PrewarmFirstUse: Sendable, Equatable, CustomStringConvertible {
    /// The value was ready: prewarming paid off in full.
    case hit
    /// Prewarming was under way; the caller waited this long.
    case wait(nanoseconds: UInt64)
    /// Prewarming had not started: the caller made the value itself.
    case miss

    public var description: String {
        switch self {
        case .hit: "hit"
        case .wait(let nanoseconds): "wait \(formatMilliseconds(nanoseconds))"
        case .miss: "miss"
        }
    }
}
