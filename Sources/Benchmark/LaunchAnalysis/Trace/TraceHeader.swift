import LaunchProfFormat

/// The fixed header of a trace file (docs/trace-format.md).
public struct TraceHeader: Sendable, Equatable {
    /// The trace format's version.
    public var formatVersion: UInt32
    /// The process that wrote the trace.
    public var pid: UInt32
    /// The ring's overflow policy.
    public var policy: TraceOverflowPolicy
    /// LAUNCHPROF_SPAWN_NS from the harness; `nil` when not spawned by it.
    public var spawnNanoseconds: UInt64?
    /// When the C constructor ran, before `main`.
    public var processEntryNanoseconds: UInt64?
    /// `LaunchTracker.recordLaunchStart()`, if called.
    public var mainNanoseconds: UInt64?
    /// `LaunchTracker.recordLaunchComplete()`, if called.
    public var launchCompleteNanoseconds: UInt64?
    /// When the trace was written.
    public var writtenNanoseconds: UInt64?
    /// Ring capacity in events.
    public var capacity: UInt64
    /// Events in the file (the events section holds exactly this many).
    public var eventCount: UInt64
    /// Events dropped when the ring was full, or overwritten.
    public var lostEvents: UInt64

    /// A header with these values.
    public init(
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
