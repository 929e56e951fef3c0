import LaunchProf
import LaunchProfDeferred

/// How ``Lifecycle`` behaves. Every field has a default a server can use.
public struct LifecycleConfiguration: Sendable, Equatable {
    /// How long will-suspend handlers (and state saving) may take after
    /// SIGTSTP before the process stops anyway.
    public var suspendBudget: Duration = .seconds(1)
    /// How long will-terminate handlers (and state saving) may take after
    /// SIGTERM or SIGINT before the process exits anyway. Keep it below the
    /// supervisor's own limit (systemd's TimeoutStopSec, 90 s by default).
    public var terminateBudget: Duration = .seconds(5)
    /// The heartbeat's period, or nil for none. The lifecycle thread wakes
    /// this often to find stops it could not see (SIGSTOP, cgroup freezer).
    public var heartbeat: Duration? = .milliseconds(100)
    /// A heartbeat gap (beyond the period and the time spent waiting for a
    /// CPU) at least this long is reported as an unobserved suspension.
    public var minimumUnobservedSuspension: Duration = .milliseconds(500)
    /// The memory-pressure trigger, or nil for none.
    public var memoryPressure: MemoryPressureTrigger? = MemoryPressureTrigger()
    /// Whether to report wall-clock changes.
    public var watchesClockChanges = true
    /// How the process ends after SIGTERM or SIGINT.
    public var terminationExit: TerminationExit = .reraiseSignal
    /// Back to active after at least this long in background:
    /// ``LifecycleEvent/returnedAfterLongBackground(_:)`` (5 minutes, as in the seed).
    public var longBackgroundThreshold: Duration = .seconds(300)

    /// The defaults: 1 s to suspend, 5 s to terminate, a 100 ms heartbeat, memory pressure and clock changes watched.
    public init() {}

    /// Why this configuration cannot be used, or nil.
    func problem() -> String? {
        if suspendBudget < .zero { return "suspendBudget cannot be negative, got \(suspendBudget)" }
        if longBackgroundThreshold < .zero { return "longBackgroundThreshold cannot be negative, got \(longBackgroundThreshold)" }
        if terminateBudget < .zero { return "terminateBudget cannot be negative, got \(terminateBudget)" }
        if let heartbeat, heartbeat < .milliseconds(1) {
            return "heartbeat must be at least 1 ms (or nil for none), got \(heartbeat)"
        }
        if minimumUnobservedSuspension <= .zero {
            return "minimumUnobservedSuspension must be positive, got \(minimumUnobservedSuspension)"
        }
        return memoryPressure?.problem()
    }
}

/// How a terminating process exits once its handlers are done.
public enum TerminationExit: Sendable, Equatable {
    /// Die by the same signal (default action), so the parent sees "killed by
    /// SIGTERM": what shells and systemd treat as a clean stop.
    case reraiseSignal
    /// exit(128 + signal), running atexit handlers.
    case exitStatus
}

/// A PSI trigger: notify when tasks stalled on memory for at least `stall`
/// within any `window` (see the kernel's Documentation/accounting/psi.rst).
public struct MemoryPressureTrigger: Sendable, Equatable {
    /// `some`: at least one task stalled; `full`: all non-idle tasks did.
    public enum Kind: String, Sendable, Equatable {
        /// At least one task stalled on memory.
        case some
        /// All non-idle tasks stalled on memory at once.
        case full
    }

    /// Which stall counts: one task's (`some`) or all tasks' (`full`).
    public var kind: Kind
    /// How long tasks must stall on memory within `window` for the trigger to fire.
    public var stall: Duration
    /// Without CAP_SYS_RESOURCE the kernel accepts only multiples of 2 s.
    public var window: Duration
    /// The pressure file; nil picks the process's cgroup `memory.pressure`
    /// (cgroup v2) and falls back to /proc/pressure/memory.
    public var path: String?

    /// A trigger on `stall` of memory stall within `window` (the defaults: 150 ms in 2 s, `some`).
    public init(kind: Kind = .some, stall: Duration = .milliseconds(150), window: Duration = .seconds(2), path: String? = nil) {
        self.kind = kind
        self.stall = stall
        self.window = window
        self.path = path
    }

    /// The text written to the pressure file, e.g. "some 150000 2000000".
    public var triggerText: String {
        "\(kind.rawValue) \(RuntimeClock.nanoseconds(stall) / 1_000) \(RuntimeClock.nanoseconds(window) / 1_000)"
    }

    func problem() -> String? {
        guard window >= .milliseconds(500), window <= .seconds(10) else {
            return "memoryPressure.window must be between 500 ms and 10 s (the kernel's limits), got \(window)"
        }
        guard stall > .zero, stall <= window else {
            return "memoryPressure.stall must be positive and at most the window (\(window)), got \(stall)"
        }
        return nil
    }
}
