/// Why an ELF file could not be read. Every case names the file.
public enum ELFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path does not exist.
    case missing(path: String)
    /// The path is not a regular file that can be opened and read.
    case unreadable(path: String, reason: String)
    /// The file does not start with the ELF magic number.
    case notELF(path: String, firstBytes: [UInt8])
    /// An ELF file this reader does not read (32-bit, big-endian) or a
    /// damaged one: `reason` says which field is wrong and how.
    case unsupported(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path): "'\(path)' does not exist"
        case .unreadable(let path, let reason): "cannot read '\(path)': \(reason)"
        case .notELF(let path, let firstBytes):
            "'\(path)' is not an ELF file (it starts with bytes \(firstBytes.prefix(4).map { String($0, radix: 16) }.joined(separator: " ")))"
        case .unsupported(let path, let reason): "'\(path)': \(reason)"
        }
    }
}
