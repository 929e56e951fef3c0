import LaunchEngine
import LaunchProfFiles
import LaunchSupport

/// One output format of a `ResultsDocument` (terminal, JSON, Markdown, …).
/// Adding a format is one new type; the `run` command picks them by flag.
package protocol ResultsExporter {
    /// The whole document in this format.
    func export(_ document: ResultsDocument) throws -> String
}

extension ResultsExporter {
    /// Exports `document` and writes it to `path` atomically (temp file + rename).
    package func write(_ document: ResultsDocument, to path: String) throws {
        try AtomicFile.write(export(document), to: path)
    }
}
