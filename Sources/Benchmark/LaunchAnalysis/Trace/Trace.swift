import LaunchProfFormat

/// A trace file as read by `TraceReader`: the launch's timestamps, the
/// tables and the events, all validated.
///
/// All timestamps are CLOCK_MONOTONIC nanoseconds, directly comparable with the
/// harness's own clock. Times the writer did not know are `nil`.
package struct Trace: Sendable, Equatable {
    /// Where the trace came from (a path, or a label for in-memory bytes).
    package var path: String
    /// The trace's header.
    package var header: TraceHeader
    /// The string table, in file order.
    package var strings: [String]
    /// The category table; index 0 is LaunchTracker's `launchprof/launch`.
    package var categories: [TraceCategory]
    /// Linux tid -> thread name, for the threads that recorded events.
    package var threadNames: [UInt32: String]
    /// The events, sorted by time (the file guarantees it; the reader checks).
    package var events: [TraceEvent]
    /// The launch sampler's stacks and modules (LAUNCHPROF_SAMPLE_HZ), if sampled.
    package var sampling: TraceSampling? = nil

    /// A trace with these contents; `TraceReader` reads one from a file.
    package init(
        path: String, header: TraceHeader, strings: [String], categories: [TraceCategory],
        threadNames: [UInt32: String], events: [TraceEvent]
    ) {
        self.path = path
        self.header = header
        self.strings = strings
        self.categories = categories
        self.threadNames = threadNames
        self.events = events
    }

    /// The zero of relative times: spawn when the harness started the process,
    /// otherwise process entry, otherwise the first event.
    package var timeOrigin: (nanoseconds: UInt64, label: String) {
        if let spawn = header.spawnNanoseconds { return (spawn, "spawn") }
        if let entry = header.processEntryNanoseconds { return (entry, "entry") }
        return (events.first?.timestamp ?? 0, "first event")
    }

    /// The latest time the trace knows of: its last event or launch complete.
    package var lastTimestamp: UInt64 {
        max(events.last?.timestamp ?? 0, header.launchCompleteNanoseconds ?? 0)
    }
}
