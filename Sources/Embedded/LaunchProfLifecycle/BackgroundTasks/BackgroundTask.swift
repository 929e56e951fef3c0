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
