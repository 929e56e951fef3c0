import LaunchProfFormat

/// A trace file as read by ``TraceReader``: the launch's timestamps, the
/// tables and the events, all validated.
///
/// All timestamps are CLOCK_MONOTONIC nanoseconds, directly comparable with the
/// harness's own clock. Times the writer did not know are `nil`.
public struct Trace: Sendable, Equatable {
    /// Where the trace came from (a path, or a label for in-memory bytes).
    public var path: String
    /// The trace's header.
    public var header: TraceHeader
    /// The string table, in file order.
    public var strings: [String]
    /// The category table; index 0 is LaunchTracker's `launchprof/launch`.
    public var categories: [TraceCategory]
    /// Linux tid -> thread name, for the threads that recorded events.
    public var threadNames: [UInt32: String]
    /// The events, sorted by time (the file guarantees it; the reader checks).
    public var events: [TraceEvent]
    /// The launch sampler's stacks and modules (LAUNCHPROF_SAMPLE_HZ), if sampled.
    public var sampling: TraceSampling? = nil

    /// A trace with these contents; ``TraceReader`` reads one from a file.
    public init(
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
    public var timeOrigin: (nanoseconds: UInt64, label: String) {
        if let spawn = header.spawnNanoseconds { return (spawn, "spawn") }
        if let entry = header.processEntryNanoseconds { return (entry, "entry") }
        return (events.first?.timestamp ?? 0, "first event")
    }

    /// The latest time the trace knows of: its last event or launch complete.
    public var lastTimestamp: UInt64 {
        max(events.last?.timestamp ?? 0, header.launchCompleteNanoseconds ?? 0)
    }
}

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

/// What the ring did when it was full.
public enum TraceOverflowPolicy: UInt32, Sendable, Equatable, CustomStringConvertible {
    /// Events that do not fit are dropped.
    case dropNewest = 0
    /// The oldest events are overwritten.
    case overwriteOldest = 1

    /// The spelling LAUNCHPROF_BUFFER_POLICY uses.
    public var description: String {
        switch self {
        case .dropNewest: "drop-newest"
        case .overwriteOldest: "overwrite-oldest"
        }
    }
}

/// A (subsystem, category) pair, as a `Signposter` names it.
public struct TraceCategory: Sendable, Hashable, CustomStringConvertible {
    /// The signposter's subsystem.
    public var subsystem: String
    /// The signposter's category.
    public var category: String

    /// A category.
    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    /// "subsystem/category".
    public var description: String { "\(subsystem)/\(category)" }
}

/// What an event record marks.
public enum TraceEventKind: Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// The beginning of a signpost interval.
    case intervalBegin
    /// The end of a signpost interval.
    case intervalEnd
    /// A single signpost event.
    case event
    /// A launch milestone.
    case milestone
    /// Launch complete.
    case launchComplete

    /// The kind of an event record's kind byte (`LP_KIND_*` in
    /// launchprof_format.h), or nil for a byte this version does not know.
    public init?(code: UInt8) {
        guard let kind = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = kind
    }

    /// The kind byte an event record of this kind holds.
    public var code: UInt8 {
        switch self {
        case .intervalBegin: UInt8(LP_KIND_BEGIN)
        case .intervalEnd: UInt8(LP_KIND_END)
        case .event: UInt8(LP_KIND_EVENT)
        case .milestone: UInt8(LP_KIND_MILESTONE)
        case .launchComplete: UInt8(LP_KIND_LAUNCH_COMPLETE)
        }
    }

    public var description: String {
        switch self {
        case .intervalBegin: "begin"
        case .intervalEnd: "end"
        case .event: "event"
        case .milestone: "milestone"
        case .launchComplete: "launch complete"
        }
    }
}

/// One event record, with its name and category resolved.
public struct TraceEvent: Sendable, Equatable {
    /// When the event was recorded (`CLOCK_MONOTONIC`, nanoseconds).
    public var timestamp: UInt64
    /// What the event is.
    public var kind: TraceEventKind
    /// Its name.
    public var name: String
    /// Signpost id; 0 means none.
    public var id: UInt64
    /// Its value argument (`value:` of a signpost call), 0 when none.
    public var argument: Int64?
    /// Linux tid of the recording thread.
    public var threadID: UInt32
    /// Index into ``Trace/categories``.
    public var categoryIndex: Int
    /// The signposter's category.
    public var category: TraceCategory

    /// An event with these values.
    public init(
        timestamp: UInt64, kind: TraceEventKind, name: String, id: UInt64, argument: Int64?,
        threadID: UInt32, categoryIndex: Int, category: TraceCategory
    ) {
        self.timestamp = timestamp
        self.kind = kind
        self.name = name
        self.id = id
        self.argument = argument
        self.threadID = threadID
        self.categoryIndex = categoryIndex
        self.category = category
    }
}
