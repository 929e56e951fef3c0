import Glibc
import LaunchBenchmark
import LaunchProf
import Testing

/// Pairing begins with ends, and telling slices from async intervals.
@Suite struct TraceIntervalTests {
    // MARK: - Hand-made traces (exact timestamps)

    private static let category = TraceCategory(subsystem: "test", category: "pairing")

    private func event(
        _ kind: TraceEventKind, _ name: String, at timestamp: UInt64, id: UInt64 = 1, tid: UInt32 = 10
    ) -> TraceEvent {
        TraceEvent(
            timestamp: timestamp, kind: kind, name: name, id: id, argument: nil, threadID: tid,
            categoryIndex: 1, category: Self.category)
    }

    private func trace(_ events: [TraceEvent]) -> Trace {
        let header = TraceHeader(
            formatVersion: 1, pid: 10, policy: .dropNewest, spawnNanoseconds: nil, processEntryNanoseconds: 100,
            mainNanoseconds: nil, launchCompleteNanoseconds: nil, writtenNanoseconds: 10_000, capacity: 64,
            eventCount: UInt64(events.count), lostEvents: 0)
        return Trace(
            path: "hand-made", header: header, strings: [],
            categories: [TraceCategory(subsystem: "launchprof", category: "launch"), Self.category],
            threadNames: [:], events: events.sorted { $0.timestamp < $1.timestamp })
    }

    @Test func nestedIntervalsOnOneThreadAreSlices() {
        let intervals = trace([
            event(.intervalBegin, "outer", at: 100, id: 1), event(.intervalBegin, "inner", at: 200, id: 2),
            event(.intervalEnd, "inner", at: 300, id: 2), event(.intervalBegin, "next", at: 300, id: 3),
            event(.intervalEnd, "next", at: 400, id: 3), event(.intervalEnd, "outer", at: 400, id: 1),
        ]).pairIntervals()
        #expect(intervals.slices.map(\.name) == ["outer", "inner", "next"])
        #expect(intervals.slices.map(\.duration) == [300, 100, 100])
        #expect(intervals.asyncIntervals.isEmpty)
        #expect(intervals.unmatchedEnds.isEmpty)
    }

    @Test func overlapWithoutNestingMakesTheLaterOneAsync() {
        let intervals = trace([
            event(.intervalBegin, "a", at: 100, id: 1), event(.intervalBegin, "b", at: 200, id: 2),
            event(.intervalEnd, "a", at: 300, id: 1), event(.intervalEnd, "b", at: 400, id: 2),
        ]).pairIntervals()
        #expect(intervals.slices.map(\.name) == ["a"])
        #expect(intervals.asyncIntervals.map(\.name) == ["b"])
    }

    @Test func intervalAcrossThreadsIsAsync() {
        let intervals = trace([
            event(.intervalBegin, "hop", at: 100, tid: 10), event(.intervalEnd, "hop", at: 200, tid: 11),
        ]).pairIntervals()
        #expect(intervals.slices.isEmpty)
        #expect(intervals.asyncIntervals.count == 1)
        #expect(intervals.asyncIntervals.first?.beginThreadID == 10)
        #expect(intervals.asyncIntervals.first?.endThreadID == 11)
    }

    @Test func pairingUsesCategoryNameAndID() {
        let intervals = trace([
            event(.intervalBegin, "x", at: 100, id: 1), event(.intervalBegin, "x", at: 150, id: 2),
            event(.intervalEnd, "x", at: 200, id: 1), event(.intervalEnd, "x", at: 300, id: 2),
        ]).pairIntervals()
        let byID = Dictionary(uniqueKeysWithValues: (intervals.slices + intervals.asyncIntervals).map { ($0.id, $0) })
        #expect(byID[1]?.endTimestamp == 200)
        #expect(byID[2]?.endTimestamp == 300)
    }

    @Test func reusedIDNestsLastInFirstOut() {
        let intervals = trace([
            event(.intervalBegin, "r", at: 100), event(.intervalBegin, "r", at: 200),
            event(.intervalEnd, "r", at: 300), event(.intervalEnd, "r", at: 400),
        ]).pairIntervals()
        #expect(intervals.slices.map(\.startTimestamp) == [100, 200])
        #expect(intervals.slices.map(\.endTimestamp) == [400, 300])
    }

    @Test func unmatchedBeginRunsToTheEndAndIsFlagged() {
        let intervals = trace([
            event(.intervalBegin, "open", at: 100, id: 5), event(.event, "tick", at: 900, id: 0),
        ]).pairIntervals()
        #expect(intervals.slices.count == 1)
        #expect(intervals.slices.first?.isUnfinished == true)
        #expect(intervals.slices.first?.endTimestamp == 900)
    }

    @Test func unmatchedEndIsReportedNotDropped() {
        let intervals = trace([
            event(.intervalEnd, "late", at: 100, id: 7), event(.intervalBegin, "late", at: 200, id: 7),
            event(.intervalEnd, "late", at: 300, id: 7),
        ]).pairIntervals()
        #expect(intervals.unmatchedEnds.map(\.timestamp) == [100])
        #expect(intervals.slices.map(\.startTimestamp) == [200])
    }

    // MARK: - Recorded on real threads

    @Test func realThreadsPairIntoSlicesAndAsyncIntervals() throws {
        let subsystem = TraceTestSupport.uniqueSubsystem("pairing")
        let signposter = Signposter(subsystem: subsystem, category: "threads")
        let first = PinnedThread(name: "lp-test-first")
        let second = PinnedThread(name: "lp-test-second")
        defer {
            first.finish()
            second.finish()
        }
        let bytes = try TraceTestSupport.recordTrace {
            recordNestedOverlappingAndHandoff(signposter, first, second)
        }
        let trace = try TraceReader.parse(bytes, path: "real")
        let intervals = trace.pairIntervals()
        let slices = intervals.slices.filter { $0.category.subsystem == subsystem }
        let async = intervals.asyncIntervals.filter { $0.category.subsystem == subsystem }
        #expect(Set(slices.map(\.name)) == ["outer", "inner", "left open"])
        #expect(Set(async.map(\.name)) == ["overlap", "handoff"])
        let handoff = try #require(async.first { $0.name == "handoff" })
        #expect(handoff.beginThreadID == first.tid)
        #expect(handoff.endThreadID == second.tid)
        #expect(slices.first { $0.name == "left open" }?.isUnfinished == true)
        let orphans = intervals.unmatchedEnds.filter { $0.category.subsystem == subsystem }
        #expect(orphans.map(\.name) == ["orphan end"])
    }
}

/// On `first`: outer ⊃ inner (slices), overlap starts inside outer and
/// outlives it (async), handoff begins here and ends on `second` (async),
/// "left open" never ends, and "orphan end" ends without a begin. Sleeps keep
/// the timestamps apart so the shapes do not depend on clock resolution.
func recordNestedOverlappingAndHandoff(_ signposter: Signposter, _ first: PinnedThread, _ second: PinnedThread) {
    let handoff = first.run {
        let outer = signposter.beginInterval("outer", value: 1)
        usleep(200)
        let inner = signposter.beginInterval("inner")
        usleep(200)
        signposter.endInterval("inner", inner)
        usleep(200)
        let overlap = signposter.beginInterval("overlap")
        usleep(200)
        signposter.endInterval("outer", outer, value: 2)
        usleep(200)
        signposter.endInterval("overlap", overlap)
        usleep(200)
        let open = signposter.beginInterval("left open")
        signposter.endInterval(dynamicName: "orphan end", open)
        return signposter.beginInterval("handoff")
    }
    usleep(200)
    second.run { signposter.endInterval("handoff", handoff) }
}
