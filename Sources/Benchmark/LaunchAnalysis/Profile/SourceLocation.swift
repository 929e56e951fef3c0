/// A line of a source file.
public struct SourceLocation: Hashable, Sendable {
    /// The source file.
    public var file: String
    /// The line in it.
    public var line: Int

    /// Line `line` of `file`.
    public init(file: String, line: Int) { (self.file, self.line) = (file, line) }
}
