import LaunchProfFormat

/// A (subsystem, category) pair, as a `Signposter` names it.
public struct TraceCategory: Sendable, Hashable, CustomStringConvertible {
    /// The signposter's subsystem.
    public var subsystem: String
    /// The signposter's category.
    public var category: String

    /// A category.
    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    /// "subsystem/category".
    public var description: String { "\(subsystem)/\(category)" }
}
