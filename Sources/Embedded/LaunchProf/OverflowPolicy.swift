import CLaunchProfSupport

/// What happens when the ring is full.
public enum OverflowPolicy: Sendable, Equatable {
    /// Keep the earliest events (the launch) and count later ones as dropped.
    case dropNewest
    /// Keep the latest events and count the overwritten ones as lost.
    case overwriteOldest

    var cValue: UInt32 {
        switch self {
        case .dropNewest: UInt32(LP_POLICY_DROP_NEWEST)
        case .overwriteOldest: UInt32(LP_POLICY_OVERWRITE_OLDEST)
        }
    }

    init(cValue: UInt32) {
        self = cValue == UInt32(LP_POLICY_OVERWRITE_OLDEST) ? .overwriteOldest : .dropNewest
    }
}
