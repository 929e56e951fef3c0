import LaunchProf

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
