import LaunchProfFormat

/// A (subsystem, category) pair, as a `Signposter` names it.
package struct TraceCategory: Sendable, Hashable, CustomStringConvertible {
    /// The signposter's subsystem.
    package var subsystem: String
    /// The signposter's category.
    package var category: String

    /// A category.
    package init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    /// "subsystem/category".
    package var description: String { "\(subsystem)/\(category)" }
}
