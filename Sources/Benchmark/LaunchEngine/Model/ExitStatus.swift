import LaunchAnalysis

/// How a measured process ended.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    /// exit(code).
    case exited(Int32)
    /// Killed by a signal it did not send itself on purpose (crash, or external).
    case signaled(Int32)
    /// Stayed up after ready and was stopped by the harness with `signal`.
    case stoppedByHarness(signal: Int32)
    /// Did not become ready (or exit) within the timeout; its process group was killed.
    case timedOut
    /// Could not be started at all (the message says why).
    case failedToStart(String)

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        case .stoppedByHarness(let signal): "stopped by launchprof after ready (signal \(signal))"
        case .timedOut: "timed out"
        case .failedToStart(let reason): "failed to start: \(reason)"
        }
    }

    /// Whether the run counts as a successful launch.
    public var isSuccess: Bool {
        switch self {
        case .exited(let code): code == 0
        case .stoppedByHarness: true
        case .signaled, .timedOut, .failedToStart: false
        }
    }
}
