#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be written whole. Every case names the file asked
/// for, not the temporary one beside it.
public enum AtomicFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The temporary file beside `path` could not be created.
    case create(path: String, errno: Int32)
    /// Writing or syncing the temporary file failed.
    case write(path: String, errno: Int32)
    /// The temporary file could not be renamed to `path`.
    case rename(path: String, errno: Int32)

    public var description: String {
        switch self {
        case let .create(path, code):
            "cannot write '\(path)': \(errnoText(code)) (creating a temporary file beside it failed)"
        case let .write(path, code): "cannot write '\(path)': \(errnoText(code))"
        case let .rename(path, code): "cannot write '\(path)': \(errnoText(code)) (renaming the temporary file failed)"
        }
    }
}
