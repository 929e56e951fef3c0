import LaunchProf

/// One run of a background task, as its handler sees it: set an expiration
/// handler, check ``isExpired`` (or `Task.isCancelled`), and say how it went
/// with ``setTaskCompleted(success:)``; returning counts as success,
/// throwing as failure.
public final class BackgroundTask: Sendable {
    /// The task's identifier.
    public let identifier: String
    /// Whether this run is a background launch's (the process was started for it).
    public let isBackgroundLaunch: Bool

    struct State {
        var expirationHandler: (@Sendable () -> Void)?
        var expired: BackgroundTaskExpiry?
        var completion: Bool?
    }

    let state = Locked(State())

    init(identifier: String, isBackgroundLaunch: Bool) {
        self.identifier = identifier
        self.isBackgroundLaunch = isBackgroundLaunch
    }

    /// Runs when the run's time is up (its budget, or the process is being
    /// suspended or terminated), before its Swift task is cancelled: stop
    /// quickly and leave things consistent. Set it first thing; if the run
    /// has expired already, it runs at once.
    public var expirationHandler: (@Sendable () -> Void)? {
        get { state.withLock { $0.expirationHandler } }
        set {
            let runNow = state.withLock { state -> Bool in
                state.expirationHandler = newValue
                return state.expired != nil
            }
            if runNow { newValue?() }
        }
    }

    /// Whether the run's time is up.
    public var isExpired: Bool { state.withLock { $0.expired != nil } }

    /// Records how the run went; the first call counts.
    public func setTaskCompleted(success: Bool) {
        state.withLock { state in
            if state.completion == nil { state.completion = success }
        }
    }

    /// Marks the run expired and runs the expiration handler (once).
    func expire(_ reason: BackgroundTaskExpiry) {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.expired == nil else { return nil }
            state.expired = reason
            return state.expirationHandler
        }
        handler?()
    }
}

/// A request or a schedule that cannot be used.
public enum BackgroundTaskError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request is not valid (the message says why).
    case invalidRequest(String)
    /// A scheduler setting is out of range (the message says which).
    case invalidConfiguration(String)
    /// A request for an identifier no handler is registered for.
    case notRegistered(String)
    /// A second handler for one identifier.
    case alreadyRegistered(String)
    /// The schedule file cannot be read as one; it is left as it is.
    case unreadableSchedule(path: String, reason: String)
    /// Another process held the schedule's lock for longer than a
    /// transaction may wait (`BackgroundScheduleFile.lockWait`, 5 s).
    case scheduleLocked(path: String, waited: Duration)
    /// The schedule file cannot be written.
    case unwritableSchedule(path: String, reason: String)
    /// A systemd unit file cannot be written.
    case unwritableUnit(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidRequest(let problem): problem
        case .invalidConfiguration(let problem): "invalid background task scheduler setting: \(problem)"
        case .notRegistered(let identifier):
            "task '\(identifier)' has no handler: register it before submitting a request for it"
        case .alreadyRegistered(let identifier): "task '\(identifier)' is registered already"
        case let .unreadableSchedule(path, reason):
            "the background task schedule '\(path)' cannot be read: \(reason); it was left as it is (move it away to start afresh)"
        case let .scheduleLocked(path, waited):
            "the background task schedule '\(path)' is locked by another process ('\(path).lock' held for over "
                + "\(waited.components.seconds) s); nothing was changed"
        case let .unwritableSchedule(path, reason): "cannot save the background task schedule '\(path)': \(reason)"
        case let .unwritableUnit(path, reason): "cannot write the systemd unit '\(path)': \(reason)"
        }
    }
}
