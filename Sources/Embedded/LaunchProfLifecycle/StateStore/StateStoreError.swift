import LaunchProf
import LaunchProfFiles

/// Why a ``StateStore`` could not be made or could not save.
public enum StateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The app name cannot be a directory name.
    case invalidName(String, reason: String)
    /// Neither STATE_DIRECTORY, XDG_STATE_HOME nor HOME is set.
    case noStateDirectory
    /// The state directory could not be created (errno).
    case createDirectory(path: String, errno: Int32)
    /// Writing the temporary file or renaming it failed.
    case write(AtomicFileError)
    /// The snapshot would make a state file larger than ``StateStore/maximumFileSize``.
    case tooLarge(bytes: Int, limit: Int)
    /// The rename could not be made durable (fsync of the directory).
    case syncDirectory(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .invalidName(let name, let reason): "invalid state store name '\(name)': \(reason)"
        case .noStateDirectory:
            "no state directory: set STATE_DIRECTORY (systemd's StateDirectory=), XDG_STATE_HOME or HOME, or pass a directory"
        case .createDirectory(let path, let code): "cannot create state directory '\(path)': \(errnoText(code))"
        case .write(let error): "cannot save state: \(error)"
        case .tooLarge(let bytes, let limit):
            "cannot save state: \(bytes) bytes make a state file larger than \(limit >> 20) MiB, the most one may hold"
        case .syncDirectory(let path, let code): "cannot sync state directory '\(path)': \(errnoText(code))"
        }
    }
}
