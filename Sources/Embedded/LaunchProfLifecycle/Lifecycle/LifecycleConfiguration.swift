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
