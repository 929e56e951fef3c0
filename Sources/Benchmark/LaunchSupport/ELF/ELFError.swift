/// Why an ELF file could not be read. Every case names the file.
package enum ELFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path does not exist.
    case missing(path: String)
    /// The path is not a regular file that can be opened and read.
    case unreadable(path: String, reason: String)
    /// The file does not start with the ELF magic number.
    case notELF(path: String, firstBytes: [UInt8])
    /// An ELF file this reader does not read (32-bit, big-endian) or a
    /// damaged one: `reason` says which field is wrong and how.
    case unsupported(path: String, reason: String)

    package var description: String {
        switch self {
        case .missing(let path): "'\(path)' does not exist"
        case .unreadable(let path, let reason): "cannot read '\(path)': \(reason)"
        case .notELF(let path, _): "'\(path)' is \(reason)"
        case .unsupported(let path, let reason): "'\(path)': \(reason)"
        }
    }

    /// The file the error is about.
    package var path: String {
        switch self {
        case .missing(let path), .unreadable(let path, _), .notELF(let path, _), .unsupported(let path, _): path
        }
    }

    /// What is wrong with the file, without its path.
    package var reason: String {
        switch self {
        case .missing: "it does not exist"
        case .unreadable(_, let reason), .unsupported(_, let reason): reason
        case .notELF(_, let firstBytes):
            firstBytes.isEmpty
                ? "not an ELF file (it is empty)"
                : "not an ELF file (it starts with bytes \(firstBytes.prefix(4).map { String($0, radix: 16) }.joined(separator: " ")))"
        }
    }
}
