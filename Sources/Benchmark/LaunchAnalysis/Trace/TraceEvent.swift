import LaunchProfFormat

/// One event record, with its name and category resolved.
package struct TraceEvent: Sendable, Equatable {
    /// When the event was recorded (`CLOCK_MONOTONIC`, nanoseconds).
    package var timestamp: UInt64
    /// What the event is.
    package var kind: TraceEventKind
    /// Its name.
    package var name: String
    /// Signpost id; 0 means none.
    package var id: UInt64
    /// Its value argument (`value:` of a signpost call), 0 when none.
    package var argument: Int64?
    /// Linux tid of the recording thread.
    package var threadID: UInt32
    /// Index into `Trace/categories`.
    package var categoryIndex: Int
    /// The signposter's category.
    package var category: TraceCategory
    /// The recording thread's CPU time (CLOCK_THREAD_CPUTIME_ID, nanoseconds)
    /// on an interval's begin or end; nil when the event did not carry it.
    package var threadCPU: UInt64? = nil

    /// An event with these values.
    package init(
        timestamp: UInt64, kind: TraceEventKind, name: String, id: UInt64, argument: Int64?,
        threadID: UInt32, categoryIndex: Int, category: TraceCategory, threadCPU: UInt64? = nil
    ) {
        self.timestamp = timestamp
        self.kind = kind
        self.name = name
        self.id = id
        self.argument = argument
        self.threadID = threadID
        self.categoryIndex = categoryIndex
        self.category = category
        self.threadCPU = threadCPU
    }
}
