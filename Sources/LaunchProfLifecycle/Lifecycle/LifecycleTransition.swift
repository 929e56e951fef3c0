import LaunchProf

/// One move of the state machine, as handlers and the event stream see it.
public struct LifecycleTransition: Sendable, Equatable, CustomStringConvertible {
    /// The state left.
    public var from: LifecycleState
    /// The state entered.
    public var to: LifecycleState
    /// What caused it: a signal, launch complete, a change of the terminal's foreground group.
    public var cause: LifecycleCause
    /// When the transition happened, CLOCK_MONOTONIC nanoseconds.
    public var nanoseconds: UInt64
    /// Leaving `active`: how long the active session that ends here lasted
    /// (since the process last became active).
    public var activeSession: Duration?
    /// Leaving `background` for `inactive` (on the way back to active): how
    /// long the process was in background, suspended stops included.
    public var timeInBackground: Duration?

    /// A transition from `from` to `to`, caused by `cause`, at `nanoseconds` (`CLOCK_MONOTONIC`).
    public init(
        from: LifecycleState, to: LifecycleState, cause: LifecycleCause, nanoseconds: UInt64, activeSession: Duration? = nil,
        timeInBackground: Duration? = nil
    ) {
        self.from = from
        self.to = to
        self.cause = cause
        self.nanoseconds = nanoseconds
        self.activeSession = activeSession
        self.timeInBackground = timeInBackground
    }

    public var description: String {
        var text = "\(from) -> \(to) (\(cause))"
        if let activeSession { text += ", active for \(activeSession)" }
        if let timeInBackground { text += ", in background for \(timeInBackground)" }
        return text
    }
}

/// What set a transition off.
public enum LifecycleCause: Sendable, Equatable, CustomStringConvertible {
    /// `LaunchTracker.recordLaunchComplete()`.
    case launchComplete
    /// Launch complete of a background launch (`LaunchTracker.isBackgroundLaunch`):
    /// the process goes from launching straight to background.
    case backgroundLaunch
    /// SIGTSTP: Ctrl-Z at a terminal, or `kill -TSTP`.
    case terminalStop
    /// SIGCONT: `fg`, `bg`, or `kill -CONT`.
    case continued
    /// The terminal's foreground process group changed (seen on SIGCONT).
    case terminalForegroundChanged
    /// SIGTERM or SIGINT (the signal number).
    case terminationSignal(Int32)
    /// SIGHUP while the process has a controlling terminal: the terminal hung up.
    case hangup

    public var description: String {
        switch self {
        case .launchComplete: "launch complete"
        case .backgroundLaunch: "launch complete (background launch)"
        case .terminalStop: "SIGTSTP"
        case .continued: "SIGCONT"
        case .terminalForegroundChanged: "terminal foreground changed"
        case .terminationSignal(let signal): signal == 2 ? "SIGINT" : signal == 15 ? "SIGTERM" : "signal \(signal)"
        case .hangup: "SIGHUP (terminal hangup)"
        }
    }
}
