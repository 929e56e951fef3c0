import LaunchProf

/// Why deferred work began when it did.
public enum DeferredStartReason: Sendable, Equatable, CustomStringConvertible {
    /// The process was idle: CPU share measured over the last window.
    case idle(cpuShare: Double)
    /// The policy's maximum wait is zero: no idle check.
    case idleCheckSkipped
    /// The process stayed busy for the whole maximum wait; last share seen.
    case timedOut(cpuShare: Double)
    /// ``DeferredInitializer/runNow()`` cut the waiting short.
    case forced

    public var description: String {
        switch self {
        case .idle(let share): "idle (cpu share \(percent(share)))"
        case .idleCheckSkipped: "no idle check"
        case .timedOut(let share): "maximum idle wait reached (cpu share \(percent(share)))"
        case .forced: "forced by runNow()"
        }
    }

    private func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
}

/// When deferred tasks began running, and why then.
public struct DeferredStartReport: Sendable, Equatable {
    /// Why the tasks began then: the process was idle, or the wait for idleness ran out.
    public let reason: DeferredStartReason
    /// CLOCK_MONOTONIC nanoseconds.
    public let nanoseconds: UInt64
}

/// Waits until the process is idle by the rule of an ``IdlePolicy``.
package struct IdleDetector {
    package let policy: IdlePolicy

    package init(policy: IdlePolicy) { self.policy = policy }

    /// Measures window after window until one is idle or the maximum wait
    /// has passed. `pause(nanoseconds)` sleeps and returns `true` when the
    /// wait is to be abandoned (``DeferredInitializer/runNow()``).
    package func waitForIdle(pause: (UInt64) -> Bool) -> DeferredStartReason {
        let maximumWait = RuntimeClock.nanoseconds(policy.maximumWait)
        guard maximumWait > 0 else { return .idleCheckSkipped }
        let window = max(RuntimeClock.nanoseconds(policy.window), 1_000_000)
        // Saturating: a maximum wait of "forever" must not wrap into the past.
        let (sum, overflow) = RuntimeClock.now.addingReportingOverflow(maximumWait)
        let deadline = overflow ? UInt64.max : sum
        while true {
            let wallBefore = RuntimeClock.now
            let cpuBefore = RuntimeClock.processCPU
            if pause(window) { return .forced }
            let wall = RuntimeClock.now - wallBefore
            let cpu = RuntimeClock.processCPU &- cpuBefore
            let share = Double(cpu) / Double(max(wall, 1))
            if share < policy.maximumCPUShare { return .idle(cpuShare: share) }
            if RuntimeClock.now >= deadline { return .timedOut(cpuShare: share) }
        }
    }
}
