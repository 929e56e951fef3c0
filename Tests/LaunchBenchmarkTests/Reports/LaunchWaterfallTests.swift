import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// What a launch timeline holds: the median run's phases and marks, and a
/// trace's threads, intervals (deferred and prewarm told apart) and events.
@Suite struct LaunchWaterfallTests {
    private func result(_ runs: [RunMeasurement], ready: ReadyProbe = .tracer) -> BenchmarkResult {
        Summarizer().summarize(
            BenchmarkResult(
                target: LaunchTarget(name: "app", arguments: ["/opt/app"], ready: ready), mode: .warm, runs: runs))
    }

    private func tracedRun(_ index: Int, ready: UInt64) -> RunMeasurement {
        RunMeasurement(
            index: index, wallToExit: ready + 2_000_000, wallToReady: ready, processEntry: 3_000_000, main: 3_300_000,
            milestones: [MilestoneTime(name: "config", nanoseconds: 4_000_000)], exit: .exited(0))
    }

    @Test func theMedianRunsPhasesAndMarks() {
        let runs = [tracedRun(0, ready: 30_000_000), tracedRun(1, ready: 10_000_000), tracedRun(2, ready: 20_000_000)]
        let waterfall = LaunchWaterfall(result: result(runs))
        #expect(waterfall.run?.index == 2)
        #expect(waterfall.phases.map(\.label) == ["spawn → process entry", "process entry → main", "main → ready", "ready → exit"])
        #expect(waterfall.phases.map(\.end) == [3_000_000, 3_300_000, 20_000_000, 22_000_000])
        #expect(waterfall.marks.map(\.name) == ["spawn", "process entry", "main", "config", "ready", "exit"])
        #expect(waterfall.runDescription == "run 3 of 3, the median time to ready")
        #expect(waterfall.end == 22_000_000)
    }

    @Test func anUntracedProgramToExitIsOneBar() {
        let runs = (0..<4).map {
            RunMeasurement(
                index: $0, wallToExit: UInt64(1_000_000 + $0 * 1000), wallToReady: UInt64(1_000_000 + $0 * 1000), exit: .exited(0))
        }
        let waterfall = LaunchWaterfall(result: result(runs, ready: .exit))
        #expect(waterfall.run?.index == 1)  // lower middle of four
        #expect(waterfall.phases.map(\.label) == ["spawn → exit"])
        #expect(waterfall.marks.map(\.kind) == [.spawn, .exit])
    }

    @Test func aServerStoppedAfterReadyHasNoExit() {
        var run = tracedRun(0, ready: 10_000_000)
        run.wallToExit = nil
        run.exit = .stoppedByHarness(signal: 15)
        let waterfall = LaunchWaterfall(result: result([run], ready: .notify))
        #expect(waterfall.phases.last?.label == "main → ready")
        #expect(!waterfall.marks.contains { $0.kind == .exit })
    }

    @Test func noSuccessfulRunDrawsNothing() {
        let waterfall = LaunchWaterfall(result: result([RunMeasurement(index: 0, exit: .timedOut)]))
        #expect(waterfall.run == nil && waterfall.phases.isEmpty && waterfall.marks.isEmpty)
    }

    // MARK: - Traces

    private static let categories = [
        TraceCategory(subsystem: "launchprof", category: "launch"), TraceCategory(subsystem: "dev.app", category: "launch"),
        TraceCategory(subsystem: "launchprof", category: "deferred"), TraceCategory(subsystem: "launchprof", category: "prewarm"),
    ]

    private func event(
        _ kind: TraceEventKind, _ name: String, _ at: UInt64, tid: UInt32 = 100, category: Int = 1, id: UInt64 = 1
    ) -> TraceEvent {
        TraceEvent(
            timestamp: at, kind: kind, name: name, id: id, argument: nil, threadID: tid, categoryIndex: category,
            category: Self.categories[category])
    }

    private func trace(_ events: [TraceEvent], spawn: UInt64?) -> Trace {
        let header = TraceHeader(
            formatVersion: 1, pid: 100, policy: .dropNewest, spawnNanoseconds: spawn, processEntryNanoseconds: 1_002_000_000,
            mainNanoseconds: nil, launchCompleteNanoseconds: nil, writtenNanoseconds: nil, capacity: 64,
            eventCount: UInt64(events.count), lostEvents: 0)
        return Trace(
            path: "app.lptrace", header: header, strings: [], categories: Self.categories,
            threadNames: [100: "app", 101: "lp-deferred"], events: events.sorted { $0.timestamp < $1.timestamp })
    }

    private var launchEvents: [TraceEvent] {
        let base: UInt64 = 1_000_000_000
        return [
            event(.intervalBegin, "load", base + 4_000_000), event(.intervalBegin, "parse", base + 5_000_000, id: 2),
            event(.intervalEnd, "parse", base + 6_000_000, id: 2), event(.intervalEnd, "load", base + 8_000_000),
            event(.milestone, "loaded", base + 8_000_000, category: 0), event(.event, "templates: hit", base + 9_000_000, category: 3),
            event(.intervalBegin, "search index", base + 12_000_000, tid: 101, category: 2),
            event(.intervalEnd, "search index", base + 20_000_000, tid: 101, category: 2),
            event(.intervalBegin, "templates", base + 5_000_000, tid: 101, category: 3),
            event(.intervalEnd, "templates", base + 7_000_000, tid: 101, category: 3),
        ]
    }

    @Test func aTracesThreadsIntervalsAndEventsSinceItsSpawn() {
        let waterfall = LaunchWaterfall(result: result([tracedRun(0, ready: 10_000_000)]), trace: trace(launchEvents, spawn: 1_000_000_000))
        #expect(waterfall.lanes.map(\.title) == ["main thread · app (tid 100)", "lp-deferred (tid 101)"])
        let main = waterfall.lanes[0]
        #expect(main.bars.map(\.label) == ["load", "parse"])
        #expect(main.bars.map(\.depth) == [0, 1])
        #expect(main.bars.map(\.start) == [4_000_000, 5_000_000])
        #expect(main.points.map(\.name) == ["loaded", "templates: hit"])
        #expect(main.points.map(\.isMilestone) == [true, false])
        let background = waterfall.lanes[1].bars
        #expect(background.map(\.label) == ["templates", "search index"])
        #expect(background.map(\.kind) == [.prewarm, .deferred])
        #expect(background[1].note == "launchprof/deferred")
        #expect(waterfall.traceNotes.first == "threads below: trace app.lptrace, one launch of its own, times since its spawn")
        #expect(waterfall.end == 20_000_000)
    }

    @Test func aTraceWithoutSpawnIsAlignedAtProcessEntry() {
        // The trace's entry is 2 ms after its first event time base; the run's entry is at 3 ms.
        let waterfall = LaunchWaterfall(result: result([tracedRun(0, ready: 10_000_000)]), trace: trace(launchEvents, spawn: nil))
        #expect(waterfall.lanes[0].bars[0].start == 4_000_000 - 2_000_000 + 3_000_000)
        #expect(waterfall.traceNotes.first?.contains("aligned at process entry with the median run") == true)
    }

    @Test func onlyTheLongestIntervalsAreDrawn() {
        let count = LaunchWaterfall.maximumBars + 5
        let events = (0..<count).flatMap { index in
            let start = UInt64(1_000_000_000 + index * 1_000_000)
            return [
                event(.intervalBegin, "step \(index)", start, id: UInt64(index + 1)),
                event(.intervalEnd, "step \(index)", start + UInt64(1000 * (index + 1)), id: UInt64(index + 1)),
            ]
        }
        let waterfall = LaunchWaterfall(result: result([tracedRun(0, ready: 10_000_000)]), trace: trace(events, spawn: 1_000_000_000))
        let labels = waterfall.lanes.flatMap(\.bars).map(\.label)
        #expect(labels.count == LaunchWaterfall.maximumBars && waterfall.hiddenIntervals == 5)
        #expect(!labels.contains("step 0") && !labels.contains("step 4") && labels.contains("step 5"))
        #expect(waterfall.traceNotes.contains("5 shorter intervals are not drawn; `launchprof export` lists them all"))
    }
}
