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
            if pause(window) { return .forced }
            let wall = RuntimeClock.now - wallBefore
            let cpu = RuntimeClock.processCPU &- cpuBefore
            let share = Double(cpu) / Double(max(wall, 1))
            if share < policy.maximumCPUShare { return .idle(cpuShare: share) }
            if RuntimeClock.now >= deadline { return .timedOut(cpuShare: share) }
        }
    }
}
