import LaunchProf
import LaunchProfDeferred

/// Work to do outside the launch, at most as often as asked, on a schedule
/// that outlives the process: the seeds' `BGAppRefreshTaskRequest` and
/// `BGProcessingTaskRequest` on Linux.
///
/// ```swift
/// try scheduler.submit(.refresh("com.example.refresh", every: .seconds(15 * 60)))
/// try scheduler.submit(.processing("com.example.cleanup", requiresExternalPower: true))
/// ```
public struct BackgroundTaskRequest: Sendable, Equatable {
    /// What kind of work it is.
    public enum Kind: Sendable, Equatable {
        /// Keeps something fresh: due again `minimumInterval` after each run
        /// (iOS: an app refresh, at most every 15 minutes).
        case refresh(minimumInterval: Duration)
        /// Maintenance: once (nil) or again `interval` after each success.
        case processing(repeatEvery: Duration?)
    }

    /// The task's identifier (letters, digits, `.`, `-`, `_`): what it is
    /// registered, scheduled, traced and named in unit files by.
    public var identifier: String
    /// Refresh or processing.
    public var kind: Kind
    /// Not before this Unix time (milliseconds); nil: as soon as the rest allows.
    public var earliestBegin: Int64?
    /// Run only with a usable default route.
    public var requiresNetwork: Bool
    /// Run only on mains power (or on a machine without a battery).
    public var requiresExternalPower: Bool
    /// Run only once the process is idle (`IdlePolicy`).
    public var requiresIdle: Bool
    /// How long one run may take: then its expiration handler runs and its
    /// Swift task is cancelled.
    public var timeBudget: Duration

    /// A request; see the ``refresh(_:every:earliestBegin:requiresNetwork:timeBudget:)`` and
    /// ``processing(_:repeatEvery:earliestBegin:requiresNetwork:requiresExternalPower:requiresIdle:timeBudget:)`` shorthands.
    public init(
        identifier: String, kind: Kind, earliestBegin: Int64? = nil, requiresNetwork: Bool = false,
        requiresExternalPower: Bool = false, requiresIdle: Bool = false, timeBudget: Duration
    ) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBegin = earliestBegin
        self.requiresNetwork = requiresNetwork
        self.requiresExternalPower = requiresExternalPower
        self.requiresIdle = requiresIdle
        self.timeBudget = timeBudget
    }

    /// An app-refresh-style request: due `every` after its last run; 30 s per run by default, as iOS gives a refresh.
    public static func refresh(
        _ identifier: String, every interval: Duration, earliestBegin: Int64? = nil, requiresNetwork: Bool = false,
        timeBudget: Duration = .seconds(30)
    ) -> BackgroundTaskRequest {
        BackgroundTaskRequest(
            identifier: identifier, kind: .refresh(minimumInterval: interval), earliestBegin: earliestBegin,
            requiresNetwork: requiresNetwork, timeBudget: timeBudget)
    }

    /// A processing-style request: once, or again `repeatEvery` after each success; 10 minutes per run by default.
    public static func processing(
        _ identifier: String, repeatEvery interval: Duration? = nil, earliestBegin: Int64? = nil, requiresNetwork: Bool = false,
        requiresExternalPower: Bool = false, requiresIdle: Bool = false, timeBudget: Duration = .seconds(600)
    ) -> BackgroundTaskRequest {
        BackgroundTaskRequest(
            identifier: identifier, kind: .processing(repeatEvery: interval), earliestBegin: earliestBegin,
            requiresNetwork: requiresNetwork, requiresExternalPower: requiresExternalPower, requiresIdle: requiresIdle,
            timeBudget: timeBudget)
    }

    /// Why this request cannot be scheduled, or nil.
    var problem: String? {
        if let problem = Self.identifierProblem(identifier) { return problem }
        if timeBudget <= .zero { return "task '\(identifier)': the time budget must be positive, got \(timeBudget)" }
        switch kind {
        case .refresh(let interval) where interval <= .zero:
            return "task '\(identifier)': a refresh's minimum interval must be positive, got \(interval)"
        case .processing(let interval?) where interval <= .zero:
            return "task '\(identifier)': a repeating task's interval must be positive, got \(interval)"
        default: return nil
        }
    }

    /// Why `identifier` cannot name a task, or nil.
    static func identifierProblem(_ identifier: String) -> String? {
        let allowed = identifier.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        guard !identifier.isEmpty, identifier.utf8.count <= 200, allowed else {
            return "'\(identifier)' is not a task identifier: use 1 to 200 letters, digits, '.', '-' and '_'"
        }
        return nil
    }
}

/// How one run of a background task ended.
public enum BackgroundTaskOutcome: String, Sendable, Equatable {
    /// `setTaskCompleted(success: true)`, or the handler returned.
    case succeeded
    /// `setTaskCompleted(success: false)`, or the handler threw.
    case failed
    /// Its time budget ran out, or the process was suspended or terminated
    /// while it ran: its expiration handler ran and its task was cancelled.
    case expired
}

/// One run of a background task, as the scheduler recorded it.
public struct BackgroundTaskRun: Sendable, Equatable {
    /// The task.
    public var identifier: String
    /// How it ended.
    public var outcome: BackgroundTaskOutcome
    /// Why it expired, when it did.
    public var expiry: BackgroundTaskExpiry?
    /// When it started, Unix milliseconds.
    public var started: Int64
    /// When it ended (or was recorded as expired), Unix milliseconds.
    public var ended: Int64
    /// When it is due next, Unix milliseconds; nil when it is done for good.
    public var nextDue: Int64?
}

/// Why a run's time ran out.
public enum BackgroundTaskExpiry: String, Sendable, Equatable {
    /// Its time budget passed.
    case timeBudget = "time budget"
    /// The process was told to terminate (SIGTERM, SIGINT, a hangup).
    case terminating
    /// The process was about to be stopped (SIGTSTP).
    case suspending
}

/// A request or a schedule that cannot be used.
public enum BackgroundTaskError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request is not valid (the message says why).
    case invalidRequest(String)
    /// A request for an identifier no handler is registered for.
    case notRegistered(String)
    /// A second handler for one identifier.
    case alreadyRegistered(String)
    /// The schedule file cannot be read as one; it is left as it is.
    case unreadableSchedule(path: String, reason: String)
    /// The schedule file cannot be written.
    case unwritableSchedule(path: String, reason: String)
    /// A systemd unit file cannot be written.
    case unwritableUnit(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidRequest(let problem): problem
        case .notRegistered(let identifier):
            "task '\(identifier)' has no handler: register it before submitting a request for it"
        case .alreadyRegistered(let identifier): "task '\(identifier)' is registered already"
        case let .unreadableSchedule(path, reason):
            "the background task schedule '\(path)' cannot be read: \(reason); it was left as it is (move it away to start afresh)"
        case let .unwritableSchedule(path, reason): "cannot save the background task schedule '\(path)': \(reason)"
        case let .unwritableUnit(path, reason): "cannot write the systemd unit '\(path)': \(reason)"
        }
    }
}
