import Glibc
import Synchronization

/// The text the server answers with, read from a file at start and on reload.
final class Greeting: Sendable {
    private let file: String?
    private let current: Mutex<String>

    init(file: String?) {
        self.file = file
        current = Mutex(Self.read(file))
    }

    var text: String { current.withLock { $0 } }

    /// Reads the file again; returns the new text.
    func reload() -> String {
        let text = Self.read(file)
        current.withLock { $0 = text }
        return text
    }

    private static func read(_ file: String?) -> String {
        guard let file, let stream = fopen(file, "r") else { return "ok" }
        defer { fclose(stream) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), stream) != nil else { return "" }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return line.hasSuffix("\n") ? String(line.dropLast()) : line
    }
}
