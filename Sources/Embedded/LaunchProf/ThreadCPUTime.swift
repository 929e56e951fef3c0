import CLaunchProfSupport

/// The calling thread's CPU time, which ``Signposter`` records at each
/// interval's begin and end so that a trace says how much of an interval
/// the thread that ran it spent on CPU.
///
/// CLOCK_THREAD_CPUTIME_ID has no vDSO fast path on Linux: each read is a
/// system call, about 18 clock_gettime(CLOCK_MONOTONIC)s, so an interval with
/// the two reads costs 18 times one without (measured with
/// `Scripts/compare/measure-thread-cpu-cost.sh`; docs/tracer.md, "Thread CPU
/// time of intervals"). The reads are made only until launch complete: that
/// is what the attribution of a launch reads, and afterwards (a server's
/// requests) an interval costs what it did before.
@usableFromInline
enum ThreadCPUTime {
    /// The argument and flags of an interval's begin or end: the thread's CPU
    /// time with `LP_FLAG_THREAD_CPU` before launch complete, nothing after.
    @inlinable
    static var stamp: (argument: Int64, flags: UInt8) {
        guard lp_launch_time(1) == 0 else { return (0, 0) }
        return (now, UInt8(LP_FLAG_THREAD_CPU))
    }

    /// Nanoseconds of CPU the calling thread has used, as the argument
    /// field of an event carries it (`LP_FLAG_THREAD_CPU`); 0 if the clock
    /// cannot be read.
    @inlinable
    static var now: Int64 { Int64(bitPattern: lp_thread_cpu_ns()) }
}
