import Glibc
import InMemoryTracing
import LaunchProf
import LaunchProfTracing
import Testing
import Tracing

/// `LaunchTracing.emit` over timelines made by hand: the span tree, the times
/// and the attributes, checked against what each timeline says.
@Suite struct LaunchTracingTests {
    /// Unix nanoseconds of monotonic zero in these timelines.
    static let zero: Int64 = 1_700_000_000_000_000_000

    static func interval(
        _ name: String, _ start: UInt64, _ end: UInt64?, thread: UInt32 = 1, endThread: UInt32? = nil
    ) -> LaunchTimeline.Interval {
        .init(
            name: name, subsystem: "app", category: "launch", start: start, end: end, threadID: thread, endThreadID: endThread ?? thread,
            value: nil)
    }

    static func milestone(_ name: String, _ time: UInt64, thread: UInt32 = 1) -> LaunchTimeline.Event {
        .init(kind: .milestone, name: name, timestamp: time, threadID: thread, subsystem: "", category: "", value: nil)
    }

    func spans(_ timeline: LaunchTimeline, serviceName: String? = nil) -> [String: FinishedInMemorySpan] {
        let tracer = InMemoryTracer()
        let count = LaunchTracing.emit(timeline, serviceName: serviceName, tracer: tracer)
        let finished = tracer.finishedSpans
        #expect(finished.count == count)
        #expect(tracer.activeSpans.isEmpty, "every span made is ended")
        return Dictionary(finished.map { ($0.operationName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func launchSpanRunsFromSpawnToLaunchCompleteWithMilestonesAsEvents() throws {
        let timeline = LaunchTimeline(
            spawnNanoseconds: 1_000, processEntryNanoseconds: 4_000, mainNanoseconds: 5_000, launchCompleteNanoseconds: 90_000,
            events: [
                Self.milestone("main", 5_000), Self.milestone("config loaded", 20_000), Self.milestone("ui ready", 80_000, thread: 2),
            ],
            lostEvents: 3, monotonicZeroUnixNanoseconds: Self.zero)
        let launch = try #require(spans(timeline, serviceName: "checkout")["launch"])
        #expect(launch.parentSpanID == nil)
        #expect(launch.startInstant.nanosecondsSinceEpoch == UInt64(Self.zero) + 1_000)
        #expect(launch.endInstant.nanosecondsSinceEpoch == UInt64(Self.zero) + 90_000)
        #expect(launch.events.map(\.name) == ["process entry", "main", "config loaded", "ui ready"], "main once, not twice")
        #expect(launch.events.map(\.nanosecondsSinceEpoch) == [4_000, 5_000, 20_000, 80_000].map { UInt64(Self.zero) + $0 })
        #expect(launch.events[3].attributes["thread.id"]?.toSpanAttribute() == .int64(2))
        #expect(launch.attributes["service.name"]?.toSpanAttribute() == .string("checkout"))
        #expect(launch.attributes["launchprof.time_origin"]?.toSpanAttribute() == .string("spawn"))
        #expect(launch.attributes["launchprof.lost_events"]?.toSpanAttribute() == .int64(3))
        #expect(launch.attributes["process.pid"]?.toSpanAttribute() == .int64(Int64(getpid())))
        let name = try #require(launch.attributes["process.executable.name"]?.toSpanAttribute())
        #expect(name != .string(""))
        #expect(launch.status == nil, "a launch that completed is not an error")
    }

    @Test func intervalsNestAsOnTheirThreadAndOthersHangFromLaunch() throws {
        let timeline = LaunchTimeline(
            processEntryNanoseconds: 1_000, launchCompleteNanoseconds: 100_000,
            intervals: [
                Self.interval("load", 2_000, 50_000),
                Self.interval("parse", 3_000, 20_000),
                Self.interval("validate", 21_000, 40_000),
                Self.interval("schema", 22_000, 30_000),
                Self.interval("index", 51_000, 90_000),
                Self.interval("warm", 2_500, 60_000, thread: 2),
                Self.interval("handoff", 10_000, 70_000, thread: 2, endThread: 3),
                Self.interval("still open", 80_000, nil, thread: 2),
                Self.interval("after launch", 150_000, 160_000),
            ],
            monotonicZeroUnixNanoseconds: Self.zero)
        let spans = spans(timeline)
        #expect(spans["after launch"] == nil, "only intervals begun during the launch are spans")
        #expect(spans.count == 9)
        func parent(_ name: String) -> String? {
            let id = spans[name]?.parentSpanID
            return spans.values.first { $0.spanID == id }?.operationName
        }
        #expect(parent("load") == "launch")
        #expect(parent("parse") == "load")
        #expect(parent("validate") == "load")
        #expect(parent("schema") == "validate")
        #expect(parent("index") == "launch", "after load ended, not inside it")
        #expect(parent("warm") == "launch", "another thread's interval is not nested in this thread's")
        #expect(parent("handoff") == "launch", "an interval ended on another thread nests in nothing")
        #expect(parent("still open") == "launch")
        let traceIDs = Set(spans.values.map(\.traceID))
        #expect(traceIDs.count == 1, "one trace")

        let schema = try #require(spans["schema"])
        #expect(schema.startInstant.nanosecondsSinceEpoch == UInt64(Self.zero) + 22_000)
        #expect(schema.endInstant.nanosecondsSinceEpoch == UInt64(Self.zero) + 30_000)
        #expect(schema.attributes["thread.id"]?.toSpanAttribute() == .int64(1))
        #expect(schema.attributes["launchprof.subsystem"]?.toSpanAttribute() == .string("app"))
        let open = try #require(spans["still open"])
        #expect(open.endInstant.nanosecondsSinceEpoch == UInt64(Self.zero) + 100_000, "an open interval ends with the launch")
        #expect(open.attributes["launchprof.unfinished"]?.toSpanAttribute() == .bool(true))
        let launch = try #require(spans["launch"])
        #expect(launch.startInstant.nanosecondsSinceEpoch == UInt64(Self.zero) + 1_000, "from process entry without a spawn time")
        #expect(launch.attributes["launchprof.time_origin"]?.toSpanAttribute() == .string("entry"))
    }

    @Test func signpostEventsBelongToTheirThreadsInterval() throws {
        let timeline = LaunchTimeline(
            processEntryNanoseconds: 0, launchCompleteNanoseconds: 10_000,
            intervals: [Self.interval("load", 1_000, 5_000), Self.interval("warm", 1_000, 5_000, thread: 2)],
            events: [.init(kind: .event, name: "cache hit", timestamp: 2_000, threadID: 1, subsystem: "app", category: "launch", value: 4)],
            monotonicZeroUnixNanoseconds: Self.zero)
        let spans = spans(timeline)
        #expect(spans["load"]?.events.map(\.name) == ["cache hit"])
        #expect(spans["warm"]?.events.isEmpty == true)
    }

    @Test func aLaunchThatNeverCompletedIsAnErrorEndingAtItsLastEvent() throws {
        let timeline = LaunchTimeline(
            processEntryNanoseconds: 1_000, events: [Self.milestone("config loaded", 7_000)], monotonicZeroUnixNanoseconds: Self.zero)
        let launch = try #require(spans(timeline)["launch"])
        #expect(launch.endInstant.nanosecondsSinceEpoch == UInt64(Self.zero) + 7_000)
        #expect(launch.status?.code == .error)
        #expect(launch.status?.message?.contains("launch complete") == true)
    }

    @Test func theLiveTimelineOfThisProcessIsEmittedToo() throws {
        // This test process never completes a launch: the span is an error
        // that still starts at this process's entry.
        let timeline = LaunchTimeline.current()
        let launch = try #require(spans(timeline)["launch"])
        #expect(
            launch.startInstant.nanosecondsSinceEpoch
                == UInt64(timeline.unixNanoseconds(timeline.spawnNanoseconds ?? timeline.processEntryNanoseconds)))
    }
}
