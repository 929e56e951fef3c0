import Foundation
import Testing

/// launch-tracing-sample as a real process: a launch with intervals on
/// several threads, a prewarmed value and deferred tasks, exported through
/// `emitAtLaunchComplete` and `recordAtLaunchComplete` into the in-memory
/// tracer and the metrics test kit, checked against the process's own
/// timeline.
@Suite struct SampleLaunchTests {
    struct Output {
        var before: [String: Any] = [:]
        var timeline: [String: Any] = [:]
        var spans: [[String: Any]] = []
        var metrics: [[String: Any]] = []

        func span(_ name: String) throws -> [String: Any] {
            try #require(spans.first { $0["name"] as? String == name }, "no span '\(name)'")
        }

        func spans(_ name: String) -> [[String: Any]] { spans.filter { $0["name"] as? String == name } }

        func metric(_ label: String, _ dimensions: [String: String] = [:]) throws -> [String: Any] {
            try #require(
                metrics.first { $0["label"] as? String == label && ($0["dimensions"] as? [String: String] ?? [:]) == dimensions },
                "no metric \(label) \(dimensions)")
        }
    }

    static var sample: String {
        get throws {
            let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            let path = directory.appendingPathComponent("launch-tracing-sample").path
            try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run `swift build` first")
            return path
        }
    }

    static func monotonicNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Runs the sample with `arguments`, as a harness would when `spawn` is
    /// set (LAUNCHPROF_SPAWN_NS), and parses its lines.
    static func run(_ arguments: [String], spawn: Bool) throws -> (Output, spawnNanoseconds: UInt64) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try sample)
        process.arguments = arguments
        let spawnNanoseconds = monotonicNow()
        var environment = ProcessInfo.processInfo.environment
        environment["LAUNCHPROF_SPAWN_NS"] = spawn ? String(spawnNanoseconds) : nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var parsed = Output()
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            if let value = object["before"] as? [String: Any] { parsed.before = value }
            if let value = object["timeline"] as? [String: Any] { parsed.timeline = value }
            if let value = object["span"] as? [String: Any] { parsed.spans.append(value) }
            if let value = object["metric"] as? [String: Any] { parsed.metrics.append(value) }
        }
        return (parsed, spawnNanoseconds)
    }

    static func number(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }

    @Test func theLaunchArrivesAsSpansTimedAsTheProcessRecordedIt() throws {
        let (output, spawn) = try Self.run(["--workers", "3", "--words", "20000"], spawn: true)
        #expect(Self.number(output.before["spans"]) == 0, "no span is made before launch complete")
        #expect(Self.number(output.before["metrics"]) == 0, "no metric is recorded before launch complete")

        let timeline = output.timeline
        let zero = try #require(Self.number(timeline["monotonicZeroUnix"]))
        let complete = try #require(Self.number(timeline["launchComplete"]))
        #expect(Self.number(timeline["spawn"]) == Int64(spawn))
        // Unix times come from a clock pair read with each snapshot: the
        // printed timeline's may differ from the exporter's by a few ns, so
        // spans are placed within 1 ms, and their times relative to the
        // launch span's start must be exact.
        let launch = try output.span("launch")
        let launchStart = try #require(Self.number(launch["start"]))
        #expect(abs(launchStart - (Int64(spawn) + zero)) < 1_000_000, "the launch starts at spawn")
        func unix(_ monotonic: Int64) -> Int64 { launchStart + (monotonic - Int64(spawn)) }
        #expect(Self.number(launch["end"]) == unix(complete), "and ends at launch complete")
        let attributes = try #require(launch["attributes"] as? [String: Any])
        #expect(Self.number(attributes["process.pid"]) == Self.number(timeline["pid"]))
        #expect(attributes["process.executable.name"] as? String == "launch-tracing-sample")
        #expect(attributes["service.name"] as? String == "launch-tracing-sample")
        #expect(attributes["launchprof.time_origin"] as? String == "spawn")
        let events = try #require(launch["events"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(events == ["process entry", "main", "config loaded", "index built", "workers ready"])

        // Every interval begun before launch complete is a span with its times.
        let intervals = try #require(timeline["intervals"] as? [[String: Any]])
        let during = intervals.filter { (Self.number($0["start"]) ?? .max) <= complete }
        #expect(output.spans.count == during.count + 1)
        for interval in during {
            let name = try #require(interval["name"] as? String)
            let start = unix(try #require(Self.number(interval["start"])))
            let span = try #require(output.spans(name).first { Self.number($0["start"]) == start }, "no span for \(name) at \(start)")
            #expect(Self.number(span["end"]) == unix(try #require(Self.number(interval["end"]))))
        }

        // The tree: parse inside load config; each worker's interval from launch.
        let launchID = try #require(launch["spanID"] as? String)
        #expect(try output.span("load config")["parentSpanID"] as? String == launchID)
        #expect(try output.span("parse")["parentSpanID"] as? String == output.span("load config")["spanID"] as? String)
        let warm = output.spans("warm cache")
        #expect(warm.count == 3)
        #expect(warm.allSatisfy { $0["parentSpanID"] as? String == launchID })
        let threads = Set(warm.compactMap { Self.number(($0["attributes"] as? [String: Any])?["thread.id"]) })
        #expect(threads.count == 3, "three worker threads")
        let indexEvents = try #require(try output.span("build index")["events"] as? [[String: Any]])
        #expect(indexEvents.compactMap { $0["name"] as? String } == ["index sorted"])
        #expect(Set(output.spans.compactMap { $0["traceID"] as? String }).count == 1)
    }

    @Test func theLaunchArrivesAsMetrics() throws {
        let (output, spawn) = try Self.run(["--workers", "2", "--words", "20000"], spawn: true)
        let timeline = output.timeline
        let complete = try #require(Self.number(timeline["launchComplete"]))
        let launch = try output.metric("launchprof_launch_complete")
        #expect((launch["values"] as? [NSNumber])?.map(\.int64Value) == [complete - Int64(spawn)])
        let entry = try output.metric("launchprof_process_entry")
        #expect((entry["values"] as? [NSNumber])?.map(\.int64Value) == [try #require(Self.number(timeline["processEntry"])) - Int64(spawn)])
        for milestone in ["config loaded", "index built", "workers ready"] {
            let timer = try output.metric("launchprof_milestone", ["milestone": milestone])
            let value = try #require((timer["values"] as? [NSNumber])?.first?.int64Value)
            #expect(value > 0 && value <= complete - Int64(spawn))
        }
        for task in ["analytics", "search suggestions"] {
            let run = try output.metric("launchprof_deferred_task_run", ["task": task, "outcome": "succeeded"])
            #expect(((run["values"] as? [NSNumber])?.first?.int64Value ?? 0) > 0)
            _ = try output.metric("launchprof_deferred_task_queued", ["task": task, "outcome": "succeeded"])
        }
        let prewarm = output.metrics.filter { $0["label"] as? String == "launchprof_prewarm_items" }
        #expect(prewarm.reduce(0) { $0 + (Self.number($1["total"]) ?? 0) } == 1, "one prewarmed item, counted once")
    }

    @Test func withTracingOffTheLaunchStillHasItsMilestonesButNoIntervalSpans() throws {
        let (output, _) = try Self.run(["--no-tracing", "--workers", "1", "--words", "5000"], spawn: false)
        #expect(output.spans.map { $0["name"] as? String } == ["launch"])
        let launch = try output.span("launch")
        let events = try #require(launch["events"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(events == ["process entry", "main", "config loaded", "index built", "workers ready"])
        let attributes = try #require(launch["attributes"] as? [String: Any])
        #expect(attributes["launchprof.time_origin"] as? String == "entry")
        _ = try output.metric("launchprof_launch_complete")
        #expect(output.metrics.allSatisfy { $0["label"] as? String != "launchprof_process_entry" })
    }
}
