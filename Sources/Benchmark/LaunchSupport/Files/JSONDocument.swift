import Foundation
import LaunchProfFiles

/// The one JSON writer of the benchmark library: a Codable value encoded
/// with sorted keys (files diff well) and unescaped slashes, pretty printed
/// for files people read, and written whole or not at all (AtomicFile).
/// Results, baselines, insights and profiles all go through it.
package enum JSONDocument {
    /// `value` as JSON bytes.
    package static func data<Value: Encodable>(_ value: Value, pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// `value` as JSON text with a final newline.
    package static func text<Value: Encodable>(_ value: Value, pretty: Bool = true) throws -> String {
        String(decoding: try data(value, pretty: pretty), as: UTF8.self) + "\n"
    }

    /// Writes `value` as JSON (and a final newline) to `path`, synced and
    /// renamed into place.
    package static func write<Value: Encodable>(_ value: Value, to path: String) throws {
        try AtomicFile.write(Array(try data(value)) + [UInt8(ascii: "\n")], to: path, sync: true)
    }
}
