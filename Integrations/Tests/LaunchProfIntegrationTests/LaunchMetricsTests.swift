import LaunchProf
import LaunchProfMetrics
import MetricsTestKit
import Testing

/// `LaunchMetrics.record` over timelines made by hand: each time is measured
/// from spawn (or process entry) and lands in its own timer.
@Suite struct LaunchMetricsTests {
    static func milestone(_ name: String, _ time: UInt64) -> LaunchTimeline.Event {
        .init(kind: .milestone, name: name, timestamp: time, threadID: 1, subsystem: "", category: "", value: nil)
    }

    @Test func timesFromSpawnToEachMilestoneAndToLaunchComplete() throws {
        let metrics = TestMetrics()
        let timeline = LaunchTimeline(
            spawnNanoseconds: 1_000, processEntryNanoseconds: 3_000, mainNanoseconds: 4_000, launchCompleteNanoseconds: 50_000,
            events: [Self.milestone("main", 4_000), Self.milestone("config loaded", 9_000), Self.milestone("index built", 30_000)],
            monotonicZeroUnixNanoseconds: 0)
        LaunchMetrics.record(timeline, factory: metrics)
        #expect(try metrics.expectTimer("launchprof_process_entry").values == [2_000])
        #expect(try metrics.expectTimer("launchprof_main").values == [3_000])
        #expect(try metrics.expectTimer("launchprof_milestone", [("milestone", "config loaded")]).values == [8_000])
        #expect(try metrics.expectTimer("launchprof_milestone", [("milestone", "index built")]).values == [29_000])
        #expect(metrics.timers(label: "launchprof_milestone").count == 2, "main is its own timer, not a milestone")
        #expect(try metrics.expectTimer("launchprof_launch_complete").values == [49_000])
    }

    @Test func withoutASpawnTimeTimesAreFromProcessEntryAndUnrecordedOnesAreLeftOut() throws {
        let metrics = TestMetrics()
        let timeline = LaunchTimeline(
            processEntryNanoseconds: 3_000, events: [Self.milestone("config loaded", 9_000)], monotonicZeroUnixNanoseconds: 0)
        LaunchMetrics.record(timeline, factory: metrics)
        #expect(try metrics.expectTimer("launchprof_milestone", [("milestone", "config loaded")]).values == [6_000])
        #expect(metrics.timers(label: "launchprof_process_entry").isEmpty, "entry is the origin: nothing to measure")
        #expect(metrics.timers(label: "launchprof_main").isEmpty)
        #expect(metrics.timers(label: "launchprof_launch_complete").isEmpty, "a launch not complete has no time")
    }
}
