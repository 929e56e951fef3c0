import LaunchProf
import LaunchProfDeferred

/// How a terminating process exits once its handlers are done.
public enum TerminationExit: Sendable, Equatable {
    /// Die by the same signal (default action), so the parent sees "killed by
    /// SIGTERM": what shells and systemd treat as a clean stop.
    case reraiseSignal
    /// exit(128 + signal), running atexit handlers.
    case exitStatus
}
