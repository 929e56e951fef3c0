import LaunchBenchmark
import Testing

/// The launch's critical path across threads, on hand-made traces with exact
/// timestamps: the main thread (10) awaiting pool threads (20, 30).
@Suite struct LaunchCriticalPathTests {
    private static let category = TraceCategory(subsystem: "test", category: "path")

    private func interval(_ name: String, _ start: UInt64, _ end: UInt64, tid: UInt32, id: UInt64) -> [TraceEvent] {
        [.intervalBegin, .intervalEnd].map { kind in
            TraceEvent(
                timestamp: kind == .intervalBegin ? start : end, kind: kind, name: name, id: id, argument: nil, threadID: tid,
                categoryIndex: 1, category: Self.category)
        }
    }

    private func trace(_ events: [[TraceEvent]], completeAt end: UInt64, on tid: UInt32 = 10) -> Trace {
        let complete = TraceEvent(
            timestamp: end, kind: .launchComplete, name: "launch complete", id: 0, argument: nil, threadID: tid, categoryIndex: 0,
            category: TraceCategory(subsystem: "launchprof", category: "launch"))
        let all = (events.flatMap { $0 } + [complete]).sorted { $0.timestamp < $1.timestamp }
        let header = TraceHeader(
            formatVersion: 1, pid: 10, policy: .dropNewest, spawnNanoseconds: nil, processEntryNanoseconds: 100,
            mainNanoseconds: nil, launchCompleteNanoseconds: end, writtenNanoseconds: 10_000, capacity: 64,
            eventCount: UInt64(all.count), lostEvents: 0)
        return Trace(
            path: "hand-made", header: header, strings: [],
            categories: [TraceCategory(subsystem: "launchprof", category: "launch"), Self.category],
            threadNames: [:], events: all)
    }

    // The limit the trace cannot see past (no edge for an await): when the
    // task nobody awaits ended between two awaited steps, the pool thread
    // that began the second was outside its intervals after it ended, so it
    // is taken to have waited for it. AsyncSamplePathOrder predicts the
    // same for the async sample's real traces.
    @Test(
        "an async main: the main thread awaits pool threads; the path follows them, and leaves out what it did not wait for, unless it ended between two awaited steps",
        arguments: [
            (UInt64(1_900), ["load config", "build router"], [UInt32(20), 30]),
            (UInt64(2_050), ["warm cache", "build router"], [UInt32(30), 30]),
        ])
    func followsAwaitsAcrossThreads(warmCacheEnd: UInt64, names: [String], threads: [UInt32]) throws {
        let path = try #require(
            LaunchCriticalPath(
                trace: trace(
                    [
                        interval("load config", 1_000, 2_000, tid: 20, id: 1),
                        interval("warm cache", 1_100, warmCacheEnd, tid: 30, id: 2),  // nobody waits for it
                        interval("build router", 2_100, 5_000, tid: 30, id: 3),
                    ], completeAt: 5_200)))
        #expect(path.endThreadID == 10)
        #expect(path.steps.map(\.interval.name) == names)
        #expect(path.leaves.map(\.interval.beginThreadID) == threads)
    }

    @Test("an interval that awaited others encloses them: only the leaves add up, and they do not overlap")
    func enclosingStepsHoldTheirChildren() throws {
        let path = try #require(
            LaunchCriticalPath(
                trace: trace(
                    [
                        interval("bootstrap", 500, 6_000, tid: 10, id: 1),
                        interval("load config", 1_000, 2_000, tid: 20, id: 2),
                        interval("build router", 2_500, 5_500, tid: 20, id: 3),
                        interval("bind", 6_100, 6_500, tid: 10, id: 4),
                    ], completeAt: 7_000)))
        #expect(path.steps.map(\.interval.name) == ["bootstrap", "load config", "build router", "bind"])
        #expect(path.steps.map(\.isLeaf) == [false, true, true, true])
        #expect(path.steps.map(\.depth) == [0, 1, 1, 0])
        let leaves = path.leaves.map(\.interval)
        for (earlier, later) in zip(leaves, leaves.dropFirst()) { #expect(earlier.endTimestamp <= later.startTimestamp) }
    }

    @Test("the thread's own work after the other thread's ends is the path; work after launch complete is not")
    func ownWorkAndLaterWork() throws {
        let path = try #require(
            LaunchCriticalPath(
                trace: trace(
                    [
                        interval("prefetch", 1_000, 3_000, tid: 20, id: 1),
                        interval("parse", 1_500, 4_000, tid: 10, id: 2),
                        interval("after", 4_500, 9_000, tid: 10, id: 3),
                    ], completeAt: 4_200)))
        // parse ended last before launch complete; prefetch ran beside it and ended first.
        #expect(path.steps.map(\.interval.name) == ["parse"])
        #expect(LaunchCriticalPath(trace: trace([], completeAt: 4_000))?.steps.isEmpty == true)
    }

    @Test("a task started early that ends after the last step, beside it, is not what launch complete waited for")
    func workBesideTheLastStepIsNotOnThePath() throws {
        let path = try #require(
            LaunchCriticalPath(
                trace: trace(
                    [
                        interval("load config", 500, 1_500, tid: 20, id: 1),
                        interval("warm cache", 1_000, 4_500, tid: 30, id: 2),  // started early, starved, ended late
                        interval("build router", 2_000, 4_000, tid: 20, id: 3),
                    ], completeAt: 5_000, on: 20)))
        #expect(path.steps.map(\.interval.name) == ["load config", "build router"])
    }

    @Test("the main thread joins a thread that started after its own step: the join is followed")
    func aJoinAfterOwnWork() throws {
        let path = try #require(
            LaunchCriticalPath(
                trace: trace(
                    [interval("parse", 1_000, 2_000, tid: 10, id: 1), interval("index", 2_100, 3_000, tid: 20, id: 2)],
                    completeAt: 3_500)))
        #expect(path.steps.map(\.interval.name) == ["parse", "index"])
    }
}
