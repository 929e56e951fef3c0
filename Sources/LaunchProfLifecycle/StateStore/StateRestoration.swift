import LaunchProf
import LaunchProfFiles

/// Which snapshot: a quick one (on becoming inactive, for a short
/// interruption) or a complete one (on entering background or terminating).
public enum StateKind: UInt8, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Small state saved on becoming inactive: where the user was.
    case quick = 1
    /// The whole state, saved on entering background and on termination.
    case complete = 2

    public var description: String { self == .quick ? "quick" : "complete" }
}

/// A restored snapshot.
public struct StateSnapshot: Sendable, Equatable {
    /// The bytes the program saved.
    public var bytes: [UInt8]
    /// Which of the two snapshots this is.
    public var kind: StateKind
    /// The app version that saved it.
    public var appVersion: String
    /// When it was saved, CLOCK_REALTIME ns since the epoch.
    public var savedAtNanoseconds: UInt64
    /// How old it was when restored.
    public var age: Duration
    /// Saved by a clean shutdown (will-terminate), not on the way to background.
    public var savedAtCleanShutdown: Bool
}

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
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        return seconds >= 3_600 ? "\(seconds / 3_600) h \(seconds % 3_600 / 60) min" : "\(seconds) s"
    }
}

/// How the previous run of the program ended, as far as the store knows.
public enum PreviousRun: Sendable, Equatable, CustomStringConvertible {
    /// No earlier run left anything in this store.
    case none
    /// It saved its state at a clean shutdown.
    case endedCleanly
    /// It started (restored from this store) and never shut down cleanly:
    /// crashed, was killed, or the machine went down.
    case endedUncleanly
    /// It left state but did not record how it ended (it never called restore).
    case unknown

    public var description: String {
        switch self {
        case .none: "no previous run"
        case .endedCleanly: "the previous run ended cleanly"
        case .endedUncleanly: "the previous run did not end cleanly (crash, kill or power loss)"
        case .unknown: "how the previous run ended is unknown"
        }
    }
}

/// What ``StateStore/restore(_:)`` found.
public struct StateRestoration: Sendable, Equatable {
    /// The snapshot, when there was a usable one.
    public var snapshot: StateSnapshot?
    /// Why a snapshot on disk was not used, if one was not.
    public var discarded: StateDiscard?
    /// Whether there was a previous run, and whether it ended cleanly.
    public var previousRun: PreviousRun
}
