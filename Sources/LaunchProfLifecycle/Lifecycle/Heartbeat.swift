import CLaunchProfLifecycle
import CLaunchProfSupport
import LaunchProf

/// Finds stops the process could not see, from gaps between the lifecycle
/// thread's expected and actual wake-ups.
///
/// CLOCK_MONOTONIC keeps running while a process is stopped, so a poll(2)
/// that asked to sleep 100 ms and returns 1.5 s later was stopped for about
/// 1.4 s — unless it waited for a CPU all that time. The thread's run-queue
/// delay (/proc/thread-self/schedstat) is subtracted, so a busy machine is
/// not mistaken for a stop.
struct Heartbeat {
    let period: UInt64
    let threshold: UInt64
    private var waitStart: UInt64 = 0
    private var waitTimeout: UInt64 = 0
    private var runDelay: UInt64 = 0

    init(period: Duration, threshold: Duration) {
        self.period = RuntimeClock.nanoseconds(period)
        self.threshold = RuntimeClock.nanoseconds(threshold)
    }

    /// Call just before poll(2) with the timeout it gets (ns).
    mutating func willWait(now: UInt64, timeout: UInt64) {
        waitStart = now
        waitTimeout = timeout
        runDelay = lp_thread_run_delay_ns()
    }

    /// Call just after poll(2) returned; a suspension if the gap shows one.
    mutating func didWake(now: UInt64) -> UnobservedSuspension? {
        guard waitStart != 0, now > waitStart else { return nil }
        let gap = now - waitStart
        let delay = lp_thread_run_delay_ns()
        let waitedForCPU = delay > runDelay ? delay - runDelay : 0
        let unexplained = gap > waitedForCPU ? gap - waitedForCPU : 0
        // The stop began somewhere in the poll's sleep: the bounds follow.
        guard unexplained > waitTimeout, unexplained - waitTimeout >= threshold else { return nil }
        return UnobservedSuspension(
            detectedNanoseconds: now, minimumNanoseconds: unexplained - waitTimeout, maximumNanoseconds: unexplained)
    }

    /// Forgets the current wait: the gap is explained (an observed stop).
    mutating func excuse() { waitStart = 0 }
}
