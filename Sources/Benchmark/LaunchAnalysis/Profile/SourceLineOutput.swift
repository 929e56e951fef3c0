import Foundation

/// Reads llvm-symbolizer's JSON output: one object per line, one line per
/// address asked for.
package enum SourceLineOutput {
    /// Why the output cannot be used.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// llvm-symbolizer reported an error (it cannot read the file).
        case reported(String)
        /// A line is not the JSON expected.
        case unreadable(line: Int, text: String)

        package var description: String {
            switch self {
            case .reported(let message): message
            case .unreadable(let line, let text):
                "unreadable output at line \(line): '\(text.count > 120 ? text.prefix(117) + "..." : text)'"
            }
        }
    }

    private struct Record: Decodable {
        var address: String?
        var symbol: [Entry]?
        var error: Message?
        enum CodingKeys: String, CodingKey { case address = "Address", symbol = "Symbol", error = "Error" }
    }

    private struct Message: Decodable {
        var message: String
        enum CodingKeys: String, CodingKey { case message = "Message" }
    }

    private struct Entry: Decodable {
        var function: String
        var file: String
        var line: Int
        var startFile: String?
        var startLine: Int?
        enum CodingKeys: String, CodingKey {
            case function = "FunctionName", file = "FileName", line = "Line", startFile = "StartFileName"
            case startLine = "StartLine"
        }
    }

    /// Each address's frames, innermost (the inlined callee) first; an
    /// address the tool knew nothing of maps to no frames.
    package static func parse(_ output: Data) throws(Failure) -> [UInt64: [SourceFrame]] {
        var frames: [UInt64: [SourceFrame]] = [:]
        let decoder = JSONDecoder()
        for (index, line) in output.split(separator: UInt8(ascii: "\n")).enumerated() {
            let text = String(decoding: line, as: UTF8.self)
            guard !text.allSatisfy(\.isWhitespace) else { continue }
            let unreadable = Failure.unreadable(line: index + 1, text: text)
            guard let record = try? decoder.decode(Record.self, from: Data(line)) else { throw unreadable }
            if let error = record.error { throw .reported(error.message) }
            guard let hex = record.address, hex.hasPrefix("0x"), let address = UInt64(hex.dropFirst(2), radix: 16),
                let entries = record.symbol
            else { throw unreadable }
            frames[address] = entries.map {
                SourceFrame(
                    function: $0.function, file: $0.file, line: $0.line, startFile: $0.startFile ?? "",
                    startLine: $0.startLine ?? 0)
            }
        }
        return frames
    }
}
