/// A begin paired with its end (same category, name and id), or a begin whose
/// end the trace never saw.
public struct TraceInterval: Sendable, Equatable {
    public var begin: TraceEvent
    /// `nil` when the interval is unfinished.
    public var end: TraceEvent?
    /// When an unfinished interval is taken to end: the trace's last timestamp.
    public var endTimestamp: UInt64

    public init(begin: TraceEvent, end: TraceEvent?, endTimestamp: UInt64) {
        self.begin = begin
        self.end = end
        self.endTimestamp = endTimestamp
    }

    public var name: String { begin.name }
    public var category: TraceCategory { begin.category }
    public var id: UInt64 { begin.id }
    public var startTimestamp: UInt64 { begin.timestamp }
    /// The interval ran to the end of the trace without an end event.
    public var isUnfinished: Bool { end == nil }
    public var duration: UInt64 { endTimestamp - startTimestamp }
    public var beginThreadID: UInt32 { begin.threadID }
    /// The end's thread; the begin's for an unfinished interval.
    public var endThreadID: UInt32 { end?.threadID ?? begin.threadID }
}

/// A trace's intervals, split the way timeline viewers need them.
public struct TraceIntervals: Sendable, Equatable {
    /// Begin and end on one thread, properly nested with that thread's other
    /// slices: drawn as stacked slices of the thread.
    public var slices: [TraceInterval]
    /// Intervals that cross threads, or overlap a slice of their thread
    /// without nesting in it: drawn on their own async tracks.
    public var asyncIntervals: [TraceInterval]
    /// Ends with no begin before them (the begin was lost, or the program
    /// ended an interval it never began).
    public var unmatchedEnds: [TraceEvent]

    public init(slices: [TraceInterval], asyncIntervals: [TraceInterval], unmatchedEnds: [TraceEvent]) {
        self.slices = slices
        self.asyncIntervals = asyncIntervals
        self.unmatchedEnds = unmatchedEnds
    }
}
