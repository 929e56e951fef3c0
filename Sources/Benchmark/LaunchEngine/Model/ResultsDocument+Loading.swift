import Foundation
import Glibc
import LaunchProfFiles
import LaunchSupport

extension ResultsDocument {
    /// The document as JSON: pretty printed with sorted keys, so files diff
    /// well (what `--export-json` writes and baselines store).
    public func jsonData() throws -> Data { try JSONDocument.data(self) }

    /// Writes the document's JSON (and a final newline) to `path`
    /// atomically: a temporary file renamed into place.
    public func writeJSON(to path: String) throws { try JSONDocument.write(self, to: path) }

    /// The largest results file launchprof reads: 256 MiB (one of 100,000
    /// runs is about 85 MiB as launchprof writes it). Reading one takes
    /// about 6 times its size in memory
    /// (530 MB for 89 MB, measured with /usr/bin/time -f %M on `compare`):
    /// the bytes, JSONDecoder's index of them, and the decoded document.
    public static let largestFile = 256 << 20

    /// Reads a results file written by `writeJSON(to:)`, checking its schema
    /// version before anything else so an old or newer file gets that error
    /// rather than a confusing one about a missing key, and every figure in
    /// it (`validateFigures(path:)`).
    public static func load(from path: String) throws(ResultsFileError) -> ResultsDocument {
        try decode(try readBytes(path), path: path)
    }

    /// The bytes of the results file at `path`: a regular file only (a FIFO
    /// or a device is refused, not read forever), its size checked before a
    /// byte is read.
    static func readBytes(_ path: String) throws(ResultsFileError) -> Data {
        let file: (fd: FileDescriptor, size: UInt64)
        switch RegularFile.open(path) {
        case .success(let opened): file = opened
        case .failure(let failure): throw .unreadable(path: path, reason: failure.description)
        }
        guard file.size <= UInt64(largestFile) else { throw .tooLarge(path: path, bytes: Int(clamping: file.size)) }
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.pread(file.fd, at: 0, count: Int(file.size) + 1)
        } catch {
            throw .unreadable(path: path, reason: String(cString: strerror(error.errno)))
        }
        // One byte more than the size: a file that grew while it was read is
        // still held to the limit.
        guard bytes.count <= largestFile else { throw .tooLarge(path: path, bytes: bytes.count) }
        return Data(bytes)
    }

    /// The schema version alone, read before the rest.
    private struct VersionProbe: Decodable {
        var version: Int?
    }

    /// Decodes results JSON; `path` names the source in errors.
    ///
    /// JSONDecoder only: JSONSerialization's tree of objects took 30 times
    /// the file's size (3 GB for 109 MB) before the decoder began.
    public static func decode(_ data: Data, path: String) throws(ResultsFileError) -> ResultsDocument {
        try checkVersion(data, path: path)
        let document: ResultsDocument
        do {
            document = try JSONDecoder().decode(ResultsDocument.self, from: data)
        } catch {
            throw .malformed(path: path, reason: describe(error))
        }
        try document.validateFigures(path: path)
        return document
    }

    /// Checks the size and the schema version of results JSON before anything else is decoded.
    static func checkVersion(_ data: Data, path: String) throws(ResultsFileError) {
        guard data.count <= largestFile else { throw .tooLarge(path: path, bytes: data.count) }
        let probe: VersionProbe
        do {
            probe = try JSONDecoder().decode(VersionProbe.self, from: data)
        } catch let error as DecodingError {
            if case .typeMismatch(_, let context) = error, context.codingPath.first?.stringValue == "version" {
                throw .malformed(path: path, reason: "\"version\" is not an integer")
            }
            if case .typeMismatch(_, let context) = error, context.codingPath.isEmpty { throw .missingVersion(path: path) }
            throw .notJSON(path: path, reason: describe(error))
        } catch {
            throw .notJSON(path: path, reason: describe(error))
        }
        guard let version = probe.version else { throw .missingVersion(path: path) }
        guard version == currentVersion else { throw .unsupportedVersion(path: path, version: version) }
    }

    /// A decoding error as "at results[0].runs[3].exit: …".
    static func describe(_ error: any Error) -> String {
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
