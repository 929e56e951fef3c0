import LaunchProf

/// How a deferred task ended.
public enum DeferredOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The task returned without throwing.
    case succeeded
    /// The task threw; the error's description.
    case failed(String)
    /// Cancelled before it started.
    case cancelled

    public var description: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed(let message): "failed: \(message)"
        case .cancelled: "cancelled"
        }
    }
}
