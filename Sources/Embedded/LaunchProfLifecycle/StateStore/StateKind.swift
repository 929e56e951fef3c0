/// Which snapshot: a quick one (on becoming inactive, for a short
/// interruption) or a complete one (on entering background or terminating).
public enum StateKind: UInt8, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Small state saved on becoming inactive: where the user was.
    case quick = 1
    /// The whole state, saved on entering background and on termination.
    case complete = 2

    public var description: String { self == .quick ? "quick" : "complete" }
}
