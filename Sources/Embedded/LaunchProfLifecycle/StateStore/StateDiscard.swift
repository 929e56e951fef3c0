import LaunchProfFiles

/// Why a snapshot on disk was not restored. Never fatal: the program starts
/// fresh, and the description says what happened.
public enum StateDiscard: Error, Sendable, Equatable, CustomStringConvertible {
    /// Older than the store's maximum age.
    case tooOld(path: String, age: Duration, maximumAge: Duration)
    /// Written by an app version this one does not accept.
    case incompatibleVersion(path: String, found: String, expected: String)
    /// Truncated, not a state file, or its checksum does not match.
    case corrupt(path: String, reason: String)
    /// A state file format this library does not read.
    case unsupportedFormat(path: String, version: UInt32)
    /// The file exists but cannot be read (errno).
    case unreadable(path: String, errno: Int32)
    /// Something other than a regular file is in its place (a FIFO, a
    /// device, a directory): refused without reading it or blocking.
    case notRegularFile(path: String, kind: String)
    /// The file is larger than a state file may be (``StateStore/maximumFileSize``).
    case tooLarge(path: String, limit: Int)

    public var description: String {
        switch self {
        case .tooOld(let path, let age, let maximum):
            "discarded state '\(path)': saved \(Self.seconds(age)) ago, older than the maximum age of \(Self.seconds(maximum))"
        case .incompatibleVersion(let path, let found, let expected):
            "discarded state '\(path)': saved by app version '\(found)', not compatible with '\(expected)'"
        case .corrupt(let path, let reason): "discarded state '\(path)': corrupt (\(reason))"
        case .unsupportedFormat(let path, let version):
            "discarded state '\(path)': state format version \(version), this LaunchProf reads version \(StateFile.version)"
        case .unreadable(let path, let code): "discarded state '\(path)': cannot read it: \(errnoText(code))"
        case .notRegularFile(let path, let kind): "discarded state '\(path)': it is \(kind), not a regular file; not read"
        case .tooLarge(let path, let limit):
            "discarded state '\(path)': larger than \(limit >> 20) MiB, the most a state file may hold; not read"
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        return seconds >= 3_600 ? "\(seconds / 3_600) h \(seconds % 3_600 / 60) min" : "\(seconds) s"
    }
}
