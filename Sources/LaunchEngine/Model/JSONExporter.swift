import Foundation

/// The versioned JSON schema of `ResultsDocument` (`--export-json`,
/// baselines): pretty printed with sorted keys, so files diff well; every
/// run's raw numbers, the summaries and the warnings.
public struct JSONExporter: ResultsExporter {
    /// An exporter.
    public init() {}

    public func export(_ document: ResultsDocument) throws -> String {
        String(decoding: try encode(document), as: UTF8.self) + "\n"
    }

    /// The document as JSON bytes.
    public func encode(_ document: ResultsDocument) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }
}
