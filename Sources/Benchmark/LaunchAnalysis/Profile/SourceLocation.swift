/// A line of a source file.
package struct SourceLocation: Hashable, Sendable {
    /// The source file.
    package var file: String
    /// The line in it.
    package var line: Int

    /// Line `line` of `file`.
    package init(file: String, line: Int) { (self.file, self.line) = (file, line) }
}
