/// Which program of a side-by-side gate a run launched.
public enum GateSide: String, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The program or revision compared against (A).
    case base
    /// The changed program or revision (B).
    case head

    public var description: String { rawValue }

    /// The other side.
    public var other: GateSide { self == .base ? .head : .base }
}
