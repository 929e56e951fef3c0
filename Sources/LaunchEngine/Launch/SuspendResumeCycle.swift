import Glibc
import LaunchSupport

/// A lifecycle phase `launchprof run --measure` times after ready.
public enum LifecycleMeasure: String, Sendable, Equatable, Codable, CaseIterable {
    /// SIGTSTP, wait until stopped (time to suspend), SIGCONT, wait for the
    /// program's `LP1 resumed` record (time to resume). Needs LaunchProf's
    /// Lifecycle in the program.
    case resume
    /// SIGTERM, wait for the exit (time to shutdown). Any program.
    case shutdown
}

/// The suspend/resume cycle of `--measure resume`, run by ``RunObserver``
/// after ready: SIGTSTP to the group (as Ctrl-Z does), poll until the
/// kernel shows the process stopped, SIGCONT, wait for `LP1 resumed`.
struct SuspendResumeCycle {
    private enum Phase {
        case idle
        case suspending(sentAt: UInt64)
        case resuming(sentAt: UInt64)
        case done
    }

    private var phase = Phase.idle
    private(set) var timeToSuspend: UInt64?
    private(set) var timeToResume: UInt64?

    /// Whether a cycle is under way (the observer polls every millisecond
    /// while suspending, and must not stop the process yet).
    var isRunning: Bool {
        switch phase {
        case .suspending, .resuming: true
        case .idle, .done: false
        }
    }

    var isSuspending: Bool {
        if case .suspending = phase { return true }
        return false
    }

    /// Begins the cycle.
    mutating func start(_ process: LaunchedProcess) {
        let now = monotonicNanoseconds()
        process.signalGroup(SIGTSTP)
        phase = .suspending(sentAt: now)
    }

    /// Moves on once the process is stopped: records the time to suspend and
    /// continues it.
    mutating func step(_ process: LaunchedProcess) {
        guard case .suspending(let sentAt) = phase, process.isStopped() else { return }
        let stopped = monotonicNanoseconds()
        timeToSuspend = stopped &- sentAt
        let continued = monotonicNanoseconds()
        process.signalGroup(SIGCONT)
        phase = .resuming(sentAt: continued)
    }

    /// The program's `LP1 resumed` record at `ns` (its CLOCK_MONOTONIC).
    mutating func resumed(at ns: UInt64) {
        guard case .resuming(let sentAt) = phase else { return }
        timeToResume = ns > sentAt ? ns - sentAt : 0
        phase = .done
    }

    /// What went wrong, for a cycle that ran out of time.
    var timeoutMessage: String {
        switch phase {
        case .suspending: "--measure resume: the process did not stop after SIGTSTP"
        case .resuming:
            "--measure resume: no 'LP1 resumed' record after SIGCONT (the program must use LaunchProf's Lifecycle)"
        case .idle, .done: "--measure resume: the cycle did not run"
        }
    }
}
