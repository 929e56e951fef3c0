/// A begin paired with its end (same category, name and id), or a begin whose
/// end the trace never saw.
package struct TraceInterval: Sendable, Equatable {
    /// The begin event.
    package var begin: TraceEvent
    /// `nil` when the interval is unfinished.
    package var end: TraceEvent?
    /// When an unfinished interval is taken to end: the trace's last timestamp.
    package var endTimestamp: UInt64

    /// An interval from `begin` to `end`, or to `endTimestamp` when unfinished.
    package init(begin: TraceEvent, end: TraceEvent?, endTimestamp: UInt64) {
        self.begin = begin
        self.end = end
        self.endTimestamp = endTimestamp
    }

    /// The interval's name.
    package var name: String { begin.name }
    /// Its signposter's category.
    package var category: TraceCategory { begin.category }
    package var id: UInt64 { begin.id }
    /// When it began (`CLOCK_MONOTONIC`, nanoseconds).
    package var startTimestamp: UInt64 { begin.timestamp }
    /// The interval ran to the end of the trace without an end event.
    package var isUnfinished: Bool { end == nil }
    /// How long it lasted, in nanoseconds.
    package var duration: UInt64 { endTimestamp - startTimestamp }
    /// The thread it began on.
    package var beginThreadID: UInt32 { begin.threadID }
    /// The end's thread; the begin's for an unfinished interval.
    package var endThreadID: UInt32 { end?.threadID ?? begin.threadID }

    /// How long the thread that ran it was on CPU, in nanoseconds: its CPU
    /// time at the end minus at the begin (`LP_FLAG_THREAD_CPU`), at most the
    /// duration. Nil when unknown: unfinished, begun and ended on different
    /// threads (two threads' clocks do not subtract), or a begin or end
    /// without the thread's CPU time (older traces, intervals with a value,
    /// ends after launch complete).
    package var onCPU: UInt64? {
        guard let end, end.threadID == begin.threadID, let last = end.threadCPU, let first = begin.threadCPU,
            last >= first
        else { return nil }
        return min(last - first, duration)
    }

    /// The rest of its wall time (blocked, sleeping, or runnable but not
    /// running), in nanoseconds; nil when ``onCPU`` is unknown.
    package var offCPU: UInt64? { onCPU.map { duration - $0 } }
}
