import Foundation
import LaunchEngine

/// The versioned JSON schema of `ResultsDocument` (`--export-json`,
/// baselines): pretty printed with sorted keys, so files diff well; every
/// run's raw numbers, the summaries and the warnings
/// (`ResultsDocument.jsonData()` is the encoding).
package struct JSONExporter: ResultsExporter {
    /// An exporter.
    package init() {}

    package func export(_ document: ResultsDocument) throws -> String {
        String(decoding: try document.jsonData(), as: UTF8.self) + "\n"
    }
}
