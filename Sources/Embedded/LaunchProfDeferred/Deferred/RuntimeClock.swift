import CLaunchProfSupport
import LaunchProf
import LaunchProfFiles

/// Clock readings shared by the deferred initializer and the prewarm
/// registry: CLOCK_MONOTONIC nanoseconds, like every timestamp in launchprof.
package enum RuntimeClock {
    /// Now, in CLOCK_MONOTONIC nanoseconds.
    package static var now: UInt64 { lp_now_ns() }

    /// CPU time used so far by all threads of the process (user + system).
    static var processCPU: UInt64 { lp_process_cpu_ns() }

    /// The process's other threads' time on a CPU plus their time runnable
    /// but waiting for one, summed (/proc/self/task/*/schedstat); nil when
    /// the kernel does not say.
    static var otherThreadsDemand: UInt64? {
        var onCPU: UInt64 = 0
        var waiting: UInt64 = 0
        guard lp_process_demand_ns(&onCPU, &waiting) == 0 else { return nil }
        return onCPU &+ waiting
    }

    /// `duration` in whole nanoseconds, saturated (Duration.saturatingNanoseconds).
    package static func nanoseconds(_ duration: Duration) -> UInt64 { duration.saturatingNanoseconds }
}

extension Signposter {
    /// Records an event with a run-time name and a numeric argument (the
    /// public API has the dynamic-name event without an argument).
    func emitEvent(internedName name: String, value: Int64) {
        lp_record(UInt8(LP_KIND_EVENT), Names.intern(name), 0, value, UInt8(LP_FLAG_HAS_ARG), categoryIndex)
    }
}
