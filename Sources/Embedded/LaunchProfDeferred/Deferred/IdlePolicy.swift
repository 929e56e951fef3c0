import LaunchProf

/// When the process counts as idle: over a window of wall time, its CPU time
/// (all threads, CLOCK_PROCESS_CPUTIME_ID) grew by less than a share of it,
/// and so did what its other threads asked for: their CPU time plus their
/// time runnable but waiting for a CPU (/proc/self/task/*/schedstat), so
/// that threads starved by other programs do not read as idle.
///
/// The share is of one core: 0.2 means "less than a fifth of one core busy",
/// and a process using two full cores measures 2.0.
public struct IdlePolicy: Sendable, Equatable {
    /// The wall-time window CPU use is measured over.
    public var window: Duration
    /// The CPU-time / wall-time ratio below which the process is idle.
    public var maximumCPUShare: Double
    /// How long to wait for idleness before running deferred work anyway.
    /// Zero skips the idle check.
    public var maximumWait: Duration

    /// A policy; the defaults: idle when less than a fifth of one core was busy over 50 ms, waiting at most 2 s.
    ///
    /// - Precondition: `window` is positive and `maximumCPUShare` is positive.
    public init(
        window: Duration = .milliseconds(50),
        maximumCPUShare: Double = 0.2,
        maximumWait: Duration = .seconds(2)
    ) {
        precondition(window > .zero, "IdlePolicy.window must be positive, got \(window)")
        precondition(
            maximumCPUShare > 0 && maximumCPUShare.isFinite,
            "IdlePolicy.maximumCPUShare must be a positive share of one core (e.g. 0.2), got \(maximumCPUShare)")
        self.window = window
        self.maximumCPUShare = maximumCPUShare
        self.maximumWait = maximumWait
    }

    /// No idle check: deferred work starts right after the idle delay.
    public static let none = IdlePolicy(maximumWait: .zero)
}
