/// A trace's intervals, split the way timeline viewers need them.
package struct TraceIntervals: Sendable, Equatable {
    /// Begin and end on one thread, properly nested with that thread's other
    /// slices: drawn as stacked slices of the thread.
    package var slices: [TraceInterval]
    /// Intervals that cross threads, or overlap a slice of their thread
    /// without nesting in it: drawn on their own async tracks.
    package var asyncIntervals: [TraceInterval]
    /// Ends with no begin before them (the begin was lost, or the program
    /// ended an interval it never began).
    package var unmatchedEnds: [TraceEvent]

    /// Intervals paired from a trace.
    package init(slices: [TraceInterval], asyncIntervals: [TraceInterval], unmatchedEnds: [TraceEvent]) {
        self.slices = slices
        self.asyncIntervals = asyncIntervals
        self.unmatchedEnds = unmatchedEnds
    }
}
