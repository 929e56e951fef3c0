/// Why a ready probe's pattern (`TextPattern`) cannot be used: where in
/// the pattern, and what is wrong there.
package struct TextPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offset (in Unicode scalars) where the problem was found.
    package let offset: Int
    /// What is wrong, in words a user can act on.
    package let reason: String

    package init(offset: Int, _ reason: String) {
        self.offset = offset
        self.reason = reason
    }

    package var description: String { "\(reason) (at character \(offset + 1))" }
}
