import LaunchProf

/// How a ``DeferredInitializer`` decides when to run its tasks, and how many
/// at once.
public struct DeferredConfiguration: Sendable {
    /// What must happen before any deferred task may run.
    public enum Gate: Sendable, Equatable {
        /// `LaunchTracker.recordLaunchComplete()` (the process-wide launch).
        case launchComplete
        /// ``DeferredInitializer/openGate()``, called by you (tests, or a
        /// program whose "ready" is not the launch tracker's).
        case manual
    }

    /// What opens the gate: launch complete (the default) or ``DeferredInitializer/openGate()``.
    public var gate: Gate
    /// The fixed pause after the gate opens, before looking for idleness.
    public var idleDelay: Duration
    /// When the process counts as idle after the delay.
    public var idle: IdlePolicy
    /// How many tasks may run at the same time. The default, 1, keeps
    /// deferred work from competing with the program on a small machine.
    public var maximumConcurrentTasks: Int
    /// Called (on the worker thread) for every task that throws; the other
    /// tasks go on regardless.
    public var onError: (@Sendable (_ task: DeferredTaskRecord, _ error: any Error) -> Void)?

    /// A configuration; the defaults open the gate at launch complete, wait 500 ms, then for idleness (at most 2 s), and run one task at a time.
    ///
    /// - Precondition: `maximumConcurrentTasks >= 1`.
    public init(
        gate: Gate = .launchComplete,
        idleDelay: Duration = .milliseconds(500),
        idle: IdlePolicy = IdlePolicy(),
        maximumConcurrentTasks: Int = 1,
        onError: (@Sendable (_ task: DeferredTaskRecord, _ error: any Error) -> Void)? = nil
    ) {
        precondition(
            maximumConcurrentTasks >= 1,
            "DeferredConfiguration.maximumConcurrentTasks must be at least 1, got \(maximumConcurrentTasks)")
        self.gate = gate
        self.idleDelay = idleDelay
        self.idle = idle
        self.maximumConcurrentTasks = maximumConcurrentTasks
        self.onError = onError
    }
}
