import LaunchProfFormat

/// The fixed header of a trace file (docs/trace-format.md).
package struct TraceHeader: Sendable, Equatable {
    /// The trace format's version.
    package var formatVersion: UInt32
    /// The process that wrote the trace.
    package var pid: UInt32
    /// The ring's overflow policy.
    package var policy: TraceOverflowPolicy
    /// LAUNCHPROF_SPAWN_NS from the harness; `nil` when not spawned by it.
    package var spawnNanoseconds: UInt64?
    /// When the C constructor ran, before `main`.
    package var processEntryNanoseconds: UInt64?
    /// `LaunchTracker.recordLaunchStart()`, if called.
    package var mainNanoseconds: UInt64?
    /// `LaunchTracker.recordLaunchComplete()`, if called.
    package var launchCompleteNanoseconds: UInt64?
    /// When the trace was written.
    package var writtenNanoseconds: UInt64?
    /// Ring capacity in events.
    package var capacity: UInt64
    /// Events in the file (the events section holds exactly this many).
    package var eventCount: UInt64
    /// Events dropped when the ring was full, or overwritten.
    package var lostEvents: UInt64

    /// A header with these values.
    package init(
        formatVersion: UInt32, pid: UInt32, policy: TraceOverflowPolicy, spawnNanoseconds: UInt64?,
        processEntryNanoseconds: UInt64?, mainNanoseconds: UInt64?, launchCompleteNanoseconds: UInt64?,
        writtenNanoseconds: UInt64?, capacity: UInt64, eventCount: UInt64, lostEvents: UInt64
    ) {
        self.formatVersion = formatVersion
        self.pid = pid
        self.policy = policy
        self.spawnNanoseconds = spawnNanoseconds
        self.processEntryNanoseconds = processEntryNanoseconds
        self.mainNanoseconds = mainNanoseconds
        self.launchCompleteNanoseconds = launchCompleteNanoseconds
        self.writtenNanoseconds = writtenNanoseconds
        self.capacity = capacity
        self.eventCount = eventCount
        self.lostEvents = lostEvents
    }
}
