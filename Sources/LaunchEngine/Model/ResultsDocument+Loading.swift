import Foundation
import LaunchProfFiles
import LaunchSupport

/// Why a results file (or baseline) could not be read.
public enum ResultsFileError: Error, Equatable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not JSON.
    case notJSON(path: String, reason: String)
    /// The JSON has no `version`: not a launchprof results file.
    case missingVersion(path: String)
    /// A results schema this launchprof does not read.
    case unsupportedVersion(path: String, version: Int)
    /// The JSON does not have the results' shape.
    case malformed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "cannot read results '\(path)': \(reason)"
        case let .notJSON(path, reason): "results '\(path)' is not valid JSON: \(reason)"
        case let .missingVersion(path):
            "results '\(path)' has no schema \"version\" field; it was not written by launchprof"
        case let .unsupportedVersion(path, version):
            "results '\(path)' has schema version \(version); this launchprof reads version "
                + "\(ResultsDocument.currentVersion)"
        case let .malformed(path, reason): "results '\(path)' is malformed: \(reason)"
        }
    }
}

extension ResultsDocument {
    /// The document as JSON: pretty printed with sorted keys, so files diff
    /// well (what `--export-json` writes and baselines store).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the document's JSON (and a final newline) to `path`
    /// atomically: a temporary file renamed into place.
    public func writeJSON(to path: String) throws {
        try AtomicFile.write(Array(try jsonData()) + Array("\n".utf8), to: path, sync: true)
    }

    /// Reads a results file written by `writeJSON(to:)`, checking its schema
    /// version before anything else so an old or newer file gets that error
    /// rather than a confusing one about a missing key.
    public static func load(from path: String) throws(ResultsFileError) -> ResultsDocument {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try decode(data, path: path)
    }

    /// Decodes results JSON; `path` names the source in errors.
    public static func decode(_ data: Data, path: String) throws(ResultsFileError) -> ResultsDocument {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .notJSON(path: path, reason: describe(error))
        }
        guard let dictionary = object as? [String: Any], let rawVersion = dictionary["version"] else {
            throw .missingVersion(path: path)
        }
        guard let version = rawVersion as? Int else { throw .malformed(path: path, reason: "\"version\" is not an integer") }
        guard version == currentVersion else { throw .unsupportedVersion(path: path, version: version) }
        do {
            return try JSONDecoder().decode(ResultsDocument.self, from: data)
        } catch {
            throw .malformed(path: path, reason: describe(error))
        }
    }

    /// A decoding error as "at results[0].runs[3].exit: …".
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return (error as NSError).localizedDescription }
        switch error {
        case let .keyNotFound(key, context):
            return "missing key \"\(key.stringValue)\"\(location(context.codingPath))"
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            return context.debugDescription + location(context.codingPath)
        @unknown default:
            return String(describing: error)
        }
    }

    private static func location(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "" }
        let text = path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        return " at " + (text.hasPrefix(".") ? String(text.dropFirst()) : text)
    }
}
