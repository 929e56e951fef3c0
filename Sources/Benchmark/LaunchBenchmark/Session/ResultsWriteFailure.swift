/// One output of a benchmark that could not be written: which one (its
/// flag), where, and why.
public struct ResultsWriteFailure: Sendable, Equatable, CustomStringConvertible {
    /// The output, as the flag that asks for it (`--export-json`, `--report`, …).
    public var output: String
    /// The file (or the Pushgateway's URL) that could not be written.
    public var path: String
    /// Why, as the exporter or the file system said.
    public var reason: String

    /// A failure of `output` at `path`.
    public init(output: String, path: String, reason: String) {
        self.output = output
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(output): " + (reason.contains(path) ? reason : "\(path): \(reason)") }
}
