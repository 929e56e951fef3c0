import LaunchProf

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
            let demandBefore = RuntimeClock.otherThreadsDemand
            if pause(window) { return .forced }
            let wall = RuntimeClock.now - wallBefore
            let cpu = RuntimeClock.processCPU &- cpuBefore
            let share = Self.share(cpu: cpu, demand: (demandBefore, RuntimeClock.otherThreadsDemand), wall: wall)
            if share < policy.maximumCPUShare { return .idle(cpuShare: share) }
            if RuntimeClock.now >= deadline { return .timedOut(cpuShare: share) }
        }
    }

    /// How busy the process was over a window of `wall` ns: its CPU time, or
    /// what its other threads asked for (their CPU time and their time
    /// runnable but waiting for a CPU) when that is more. On a machine other
    /// programs keep busy, threads that want to run get little CPU, and by
    /// CPU time alone a starved process read as idle (the deferred work then
    /// started while six threads of it were burning); their wait for a CPU
    /// counts as theirs. A thread that ended in the window takes its times
    /// with it: the CPU time still counts it.
    static func share(cpu: UInt64, demand: (before: UInt64?, after: UInt64?), wall: UInt64) -> Double {
        var busy = cpu
        if let before = demand.before, let after = demand.after, after > before { busy = max(busy, after - before) }
        return Double(busy) / Double(max(wall, 1))
    }
}
