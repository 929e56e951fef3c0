import CLaunchProfSupport
import LaunchProf

/// Clock readings shared by the deferred initializer and the prewarm
/// registry: CLOCK_MONOTONIC nanoseconds, like every timestamp in launchprof.
package enum RuntimeClock {
    /// Now, in CLOCK_MONOTONIC nanoseconds.
    package static var now: UInt64 { lp_now_ns() }

    /// CPU time used so far by all threads of the process (user + system).
    static var processCPU: UInt64 { lp_process_cpu_ns() }

    /// `duration` in whole nanoseconds; negative durations count as zero and
    /// huge ones are capped at about 292 years.
    package static func nanoseconds(_ duration: Duration) -> UInt64 {
        guard duration > .zero else { return 0 }
        // Positive: both components are non-negative.
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return UInt64.max }
        return whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}

extension Signposter {
    /// Records an event with a run-time name and a numeric argument (the
    /// public API has the dynamic-name event without an argument).
    func emitEvent(internedName name: String, value: Int64) {
        lp_record(UInt8(LP_KIND_EVENT), Names.intern(name), 0, value, UInt8(LP_FLAG_HAS_ARG), categoryIndex)
    }
}
