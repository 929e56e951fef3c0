import Glibc
import LaunchProfFiles

/// Why ``FileText`` did not read a file.
enum FileReadError: Error, Equatable, CustomStringConvertible {
    /// open, fstat or read failed (errno).
    case system(errno: Int32)
    /// Something other than a regular file is at the path: "a FIFO"…
    case notRegular(kind: String)
    /// The file holds more than the reader's limit (bytes).
    case tooLarge(limit: Int)

    /// The path does not exist.
    var isMissing: Bool { self == .system(errno: ENOENT) }

    var description: String {
        switch self {
        case .system(let code): errnoText(code)
        case .notRegular(let kind): "it is \(kind), not a regular file"
        case .tooLarge(let limit): "it is larger than \(Self.size(limit)), the most this reader accepts"
        }
    }

    /// What a file of mode `mode` is, for messages.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file (mode \(String(mode, radix: 8)))"
        }
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
