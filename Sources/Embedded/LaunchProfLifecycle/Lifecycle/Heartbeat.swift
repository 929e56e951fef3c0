import CLaunchProfLifecycle
import CLaunchProfSupport
import Glibc
import LaunchProf
import LaunchProfDeferred

/// Finds stops the process could not see, from gaps between the lifecycle
/// thread's expected and actual wake-ups.
///
/// CLOCK_MONOTONIC keeps running while a process is stopped, so a poll(2)
/// that asked to sleep 100 ms and returns 1.5 s later was stopped for about
/// 1.4 s — unless it waited for a CPU all that time. The thread's run-queue
/// delay (/proc/thread-self/schedstat) is subtracted, so a busy machine is
/// not mistaken for a stop.
///
/// A stop can also land while the thread is busy between two waits
/// (handling a wake-up, more likely on a loaded machine): that stretch is
/// checked too, with the thread's own CPU time and run-queue delay as what
/// explains it.
struct Heartbeat {
    let period: UInt64
    let threshold: UInt64
    private var waitStart: UInt64 = 0
    private var waitTimeout: UInt64 = 0
    private var runDelay: UInt64 = 0
    /// When the last wait ended, with the thread's run delay and CPU time then.
    private var wokeAt: UInt64 = 0
    private var wokeRunDelay: UInt64 = 0
    private var wokeCPU: UInt64 = 0

    init(period: Duration, threshold: Duration) {
        self.period = RuntimeClock.nanoseconds(period)
        self.threshold = RuntimeClock.nanoseconds(threshold)
    }

    /// Call just before poll(2) with the timeout it gets (ns); a suspension
    /// if the busy stretch since the last wake-up shows one.
    mutating func willWait(now: UInt64, timeout: UInt64) -> UnobservedSuspension? {
        let delay = lp_thread_run_delay_ns()
        var found: UnobservedSuspension?
        if wokeAt != 0, now > wokeAt {
            let busy = now - wokeAt
            let explained = (delay > wokeRunDelay ? delay - wokeRunDelay : 0) &+ Self.threadCPU() &- wokeCPU
            let unexplained = busy > explained ? busy - explained : 0
            if unexplained >= threshold {
                found = UnobservedSuspension(detectedNanoseconds: now, minimumNanoseconds: unexplained, maximumNanoseconds: busy)
            }
        }
        waitStart = now
        waitTimeout = timeout
        runDelay = delay
        return found
    }

    /// Call just after poll(2) returned; a suspension if the gap shows one.
    mutating func didWake(now: UInt64) -> UnobservedSuspension? {
        defer {
            wokeAt = now
            wokeRunDelay = lp_thread_run_delay_ns()
            wokeCPU = Self.threadCPU()
        }
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

    /// Forgets the current wait and busy stretch: the gap is explained (an
    /// observed stop).
    mutating func excuse() {
        waitStart = 0
        wokeAt = 0
    }

    /// This thread's CPU time (ns).
    private static func threadCPU() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(max(0, now.tv_sec)) * 1_000_000_000 + UInt64(max(0, now.tv_nsec))
    }
}
