import CLaunchProfSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The launch as this process has recorded it so far: its times, its
/// milestones, and its signpost intervals and events, paired and in time
/// order. What exporters (OpenTelemetry spans, metrics) read at launch
/// complete, without a trace file.
///
/// Times are `CLOCK_MONOTONIC` nanoseconds, as everywhere in LaunchProf;
/// ``unixNanoseconds(_:)`` places one in Unix time. A snapshot copies the
/// ring once (no lock is taken that recording threads wait for); it is empty
/// when tracing is off.
public struct LaunchTimeline: Sendable {
    /// A signpost interval: a begin and, unless the interval is still open, its end.
    public struct Interval: Sendable, Equatable {
        /// The interval's name.
        public var name: String
        /// The subsystem of the signposter that recorded it.
        public var subsystem: String
        /// The category of the signposter that recorded it.
        public var category: String
        /// When it began.
        public var start: UInt64
        /// When it ended; nil while it is still open.
        public var end: UInt64?
        /// The thread it began on.
        public var threadID: UInt32
        /// The thread it ended on (the beginning's while open).
        public var endThreadID: UInt32
        /// The begin's value argument, if it had one.
        public var value: Int64?

        /// An interval made of its parts.
        public init(
            name: String, subsystem: String, category: String, start: UInt64, end: UInt64?, threadID: UInt32,
            endThreadID: UInt32? = nil, value: Int64? = nil
        ) {
            self.name = name
            self.subsystem = subsystem
            self.category = category
            self.start = start
            self.end = end
            self.threadID = threadID
            self.endThreadID = endThreadID ?? threadID
            self.value = value
        }
    }

    /// A point in time: a milestone or a signpost event.
    public struct Event: Sendable, Equatable {
        /// What the event is.
        public enum Kind: Sendable, Equatable {
            /// A launch milestone (``LaunchTracker/recordMilestone(_:)``).
            case milestone
            /// A signpost event (``Signposter/emitEvent(_:id:)``).
            case event
        }

        /// Milestone or signpost event.
        public var kind: Kind
        /// Its name.
        public var name: String
        /// When it was recorded.
        public var timestamp: UInt64
        /// The thread that recorded it.
        public var threadID: UInt32
        /// The subsystem of its signposter (empty for milestones).
        public var subsystem: String
        /// The category of its signposter (empty for milestones).
        public var category: String
        /// Its value argument, if it had one.
        public var value: Int64?

        /// An event made of its parts.
        public init(
            kind: Kind, name: String, timestamp: UInt64, threadID: UInt32, subsystem: String = "", category: String = "",
            value: Int64? = nil
        ) {
            self.kind = kind
            self.name = name
            self.timestamp = timestamp
            self.threadID = threadID
            self.subsystem = subsystem
            self.category = category
            self.value = value
        }
    }

    /// When the harness spawned the process, when it did.
    public var spawnNanoseconds: UInt64?
    /// When the process entered its first constructor.
    public var processEntryNanoseconds: UInt64
    /// When `main` began (``LaunchTracker/recordLaunchStart()``), if recorded.
    public var mainNanoseconds: UInt64?
    /// When the launch completed, if it has.
    public var launchCompleteNanoseconds: UInt64?
    /// Every interval recorded, by start time.
    public var intervals: [Interval]
    /// Every milestone and signpost event, by time.
    public var events: [Event]
    /// Events the ring had no room for.
    public var lostEvents: Int
    /// Unix time of `CLOCK_MONOTONIC` zero, in nanoseconds, read with the snapshot.
    public var monotonicZeroUnixNanoseconds: Int64

    /// A timeline made of its parts (a test's, or one read from elsewhere).
    public init(
        spawnNanoseconds: UInt64? = nil, processEntryNanoseconds: UInt64, mainNanoseconds: UInt64? = nil,
        launchCompleteNanoseconds: UInt64? = nil, intervals: [Interval] = [], events: [Event] = [], lostEvents: Int = 0,
        monotonicZeroUnixNanoseconds: Int64
    ) {
        self.spawnNanoseconds = spawnNanoseconds
        self.processEntryNanoseconds = processEntryNanoseconds
        self.mainNanoseconds = mainNanoseconds
        self.launchCompleteNanoseconds = launchCompleteNanoseconds
        self.intervals = intervals
        self.events = events
        self.lostEvents = lostEvents
        self.monotonicZeroUnixNanoseconds = monotonicZeroUnixNanoseconds
    }

    /// Monotonic `nanoseconds` as Unix time in nanoseconds.
    public func unixNanoseconds(_ nanoseconds: UInt64) -> Int64 { Int64(clamping: nanoseconds) &+ monotonicZeroUnixNanoseconds }

    /// The timeline recorded so far. With tracing off (the default outside
    /// the harness; ``Tracer/enable()`` or `LAUNCHPROF_ENABLE=1` turns it on)
    /// it holds the times and the milestones (whose thread is then 0), and
    /// no intervals or events.
    public static func current() -> LaunchTimeline {
        var real = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let zero = (Int64(real.tv_sec) - Int64(monotonic.tv_sec)) * 1_000_000_000 + Int64(real.tv_nsec) - Int64(monotonic.tv_nsec)
        let spawn = lp_spawn_ns()
        var timeline = LaunchTimeline(
            spawnNanoseconds: spawn == 0 ? nil : spawn, processEntryNanoseconds: lp_process_entry_ns(),
            mainNanoseconds: LaunchTracker.mainNanoseconds, launchCompleteNanoseconds: LaunchTracker.launchCompleteNanoseconds,
            intervals: [], events: [], lostEvents: 0, monotonicZeroUnixNanoseconds: zero)
        guard Tracer.isEnabled, let ring = TraceRing.global else {
            timeline.events = LaunchTracker.milestones.map {
                Event(kind: .milestone, name: $0.name, timestamp: $0.nanoseconds, threadID: 0, subsystem: "", category: "", value: nil)
            }
            return timeline
        }
        let recorded = ring.snapshot().sorted { ($0.timestamp, $0.kind) < ($1.timestamp, $1.kind) }
        timeline.lostEvents = ring.statistics.lost
        let categories = Registry.shared.categories
        func category(_ index: UInt16) -> (String, String) {
            Int(index) < categories.count ? categories[Int(index)] : ("", "")
        }
        var names: [UInt64: String] = [:]
        func name(_ encoded: UInt64) -> String {
            if let known = names[encoded] { return known }
            let text = Names.text(of: encoded)
            names[encoded] = text
            return text
        }
        // Begins wait by (category, name, id); an end closes the latest (LIFO).
        struct Key: Hashable {
            var category: UInt16
            var name: String
            var id: UInt64
        }
        var open: [Key: [Int]] = [:]
        for event in recorded {
            switch Int32(event.kind) {
            case Int32(LP_KIND_BEGIN):
                let (subsystem, categoryName) = category(event.category)
                timeline.intervals.append(
                    Interval(
                        name: name(event.name), subsystem: subsystem, category: categoryName, start: event.timestamp, end: nil,
                        threadID: event.threadID, endThreadID: event.threadID, value: event.argument))
                open[Key(category: event.category, name: name(event.name), id: event.id), default: []]
                    .append(timeline.intervals.count - 1)
            case Int32(LP_KIND_END):
                let key = Key(category: event.category, name: name(event.name), id: event.id)
                guard let index = open[key]?.popLast() else { continue }  // its begin was lost
                timeline.intervals[index].end = event.timestamp
                timeline.intervals[index].endThreadID = event.threadID
            case Int32(LP_KIND_EVENT):
                let (subsystem, categoryName) = category(event.category)
                timeline.events.append(
                    Event(
                        kind: .event, name: name(event.name), timestamp: event.timestamp, threadID: event.threadID,
                        subsystem: subsystem, category: categoryName, value: event.argument))
            case Int32(LP_KIND_MILESTONE):
                timeline.events.append(
                    Event(
                        kind: .milestone, name: name(event.name), timestamp: event.timestamp, threadID: event.threadID,
                        subsystem: "", category: "", value: nil))
            default:
                continue
            }
        }
        return timeline
    }
}
