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
            switch code {
            case ENOENT: "cannot write '\(path)': its directory '\(Self.directory(of: path))' does not exist"
            case ENOTDIR: "cannot write '\(path)': '\(Self.directory(of: path))' is not a directory"
            case EACCES, EPERM, EROFS:
                "cannot write '\(path)': \(errnoText(code)) (a new file cannot be created in '\(Self.directory(of: path))')"
            default: "cannot write '\(path)': \(errnoText(code)) (creating a temporary file beside it failed)"
            }
        case let .write(path, code): "cannot write '\(path)': \(errnoText(code))"
        case let .rename(path, code) where code == EISDIR: "cannot write '\(path)': it is a directory"
        case let .rename(path, code): "cannot write '\(path)': \(errnoText(code)) (renaming the temporary file failed)"
        }
    }

    /// The directory part of `path`, as given ("." for a bare name).
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
