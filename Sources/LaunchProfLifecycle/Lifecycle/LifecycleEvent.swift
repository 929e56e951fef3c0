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

/// A stop the process did not see coming, measured after the fact.
///
/// The heartbeat only wakes every period, so the stop's start is known to
/// within one period: the length lies between the two bounds.
public struct UnobservedSuspension: Sendable, Equatable, CustomStringConvertible {
    /// When the process noticed (CLOCK_MONOTONIC ns).
    public var detectedNanoseconds: UInt64
    /// The stop lasted at least this long…
    public var minimumNanoseconds: UInt64
    /// …and at most this long.
    public var maximumNanoseconds: UInt64

    public var description: String {
        "\(Self.milliseconds(minimumNanoseconds))–\(Self.milliseconds(maximumNanoseconds)) ms"
    }

    static func milliseconds(_ ns: UInt64) -> String { String(ns / 1_000_000) }
}

/// One firing of the memory-pressure trigger.
public struct MemoryPressure: Sendable, Equatable, CustomStringConvertible {
    /// When the trigger fired (`CLOCK_MONOTONIC`, nanoseconds).
    public var nanoseconds: UInt64
    /// The pressure file that fired (/proc/pressure/memory or a cgroup's).
    public var source: String

    public var description: String { "stall threshold crossed in \(source)" }
}

/// A step of the wall clock, relative to the monotonic clock.
public struct TimeChange: Sendable, Equatable, CustomStringConvertible {
    /// When the step was noticed (`CLOCK_MONOTONIC`, nanoseconds).
    public var nanoseconds: UInt64
    /// How far the wall clock moved beyond the time that passed (negative:
    /// set back).
    public var offsetNanoseconds: Int64

    public var description: String {
        let microseconds = offsetNanoseconds / 1_000
        return "wall clock moved by \(microseconds >= 0 ? "+" : "")\(microseconds) µs"
    }
}
