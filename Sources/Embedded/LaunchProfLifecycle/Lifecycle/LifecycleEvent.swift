import LaunchProf

/// Everything the lifecycle reports: state transitions and the moments in
/// between (reload, memory pressure, clock changes, stops it could not see).
public enum LifecycleEvent: Sendable, Equatable, CustomStringConvertible {
    /// The lifecycle moved from one state to another.
    case transition(LifecycleTransition)
    /// SIGHUP without a controlling terminal: reload configuration.
    case reload(nanoseconds: UInt64)
    /// The process was stopped without seeing it happen (SIGSTOP, a cgroup
    /// freezer, a debugger), found from a gap in the heartbeat.
    case unobservedSuspension(UnobservedSuspension)
    /// The PSI trigger fired: memory is short; drop what can be rebuilt.
    case memoryPressure(MemoryPressure)
    /// The wall clock was set (NTP step, `date -s`, a VM restored).
    case significantTimeChange(TimeChange)
    /// Handlers of a suspend or a termination ran past their budget; the
    /// process went on without waiting for them.
    case budgetExceeded(phase: LifecycleState, budget: Duration)
    /// Saving restoration state failed (the message names file and reason).
    case stateSaveFailed(String)
    /// The process became active again after at least
    /// ``LifecycleConfiguration/longBackgroundThreshold`` in background
    /// (the seed's 5 minutes): time to refresh what went stale.
    case returnedAfterLongBackground(Duration)
    /// SIGTSTP arrived while the process group is orphaned (a service
    /// started with setsid, as systemd does): the kernel discards such a
    /// stop, so nothing was suspended — no transition, no handlers.
    case stopDiscarded(nanoseconds: UInt64)

    public var description: String {
        switch self {
        case .transition(let transition): "transition \(transition)"
        case .reload: "reload"
        case .unobservedSuspension(let suspension): "unobserved suspension: \(suspension)"
        case .memoryPressure(let pressure): "memory pressure: \(pressure)"
        case .significantTimeChange(let change): "significant time change: \(change)"
        case .budgetExceeded(let phase, let budget): "\(phase) handlers exceeded their budget of \(budget)"
        case .stateSaveFailed(let message): "state not saved: \(message)"
        case .stopDiscarded: "stop discarded by the kernel: orphaned process group"
        case .returnedAfterLongBackground(let duration): "returned after \(duration) in background"
        }
    }
}
