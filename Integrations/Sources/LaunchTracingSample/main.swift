// launch-tracing-sample: a launch like lp-sample-app's (a config read, an
// index built, worker threads warming caches, a prewarmed value and deferred
// tasks), exported through LaunchProfTracing and LaunchProfMetrics into
// swift-distributed-tracing's InMemoryTracer and swift-metrics' TestMetrics,
// and printed as JSON lines for a person or a test:
//
//   {"before": {...}}      what the exporters had made just before launch complete
//   {"timeline": {...}}    the launch as LaunchTimeline saw it (monotonic ns)
//   {"span": {...}}        each finished span (Unix ns)
//   {"metric": {...}}      each timer and counter
//
//   launch-tracing-sample [--no-export] [--no-tracing] [--workers N] [--words N]
//
// --no-export leaves both exporters out (the reference for measuring what
// they cost a launch); --no-tracing leaves the tracer off, so only the times
// and milestones reach the exporters. A production program bootstraps
// swift-otel (or swift-prometheus) instead of the in-memory backends.
import Dispatch
import Foundation
import InMemoryTracing
import LaunchProf
import LaunchProfDeferred
import LaunchProfMetrics
import LaunchProfTracing
import Metrics
import MetricsTestKit
import Tracing

LaunchTracker.recordLaunchStart()

struct Options {
    var export = true
    var tracing = true
    var workers = 3
    var words = 40_000
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("launch-tracing-sample: \(message)\n".utf8))
    exit(2)
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    func number(for flag: String) -> Int {
        guard let text = arguments.popFirst() else { fail("\(flag) needs a value") }
        guard let number = Int(text), number >= 0 else { fail("\(flag) needs a whole number, got '\(text)'") }
        return number
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--no-export": options.export = false
        case "--no-tracing": options.tracing = false
        case "--workers": options.workers = number(for: argument)
        case "--words": options.words = number(for: argument)
        case "-h", "--help":
            print("usage: launch-tracing-sample [--no-export] [--no-tracing] [--workers N] [--words N]")
            exit(0)
        default: fail("unknown argument '\(argument)' (try --help)")
        }
    }
    return options
}

let options = parseOptions()
if options.tracing { Tracer.enable() }

let tracer = InMemoryTracer()
let metrics = TestMetrics()
let deferred = DeferredInitializer(configuration: DeferredConfiguration(idleDelay: .milliseconds(5)))
let prewarm = PrewarmRegistry()
if options.export {
    InstrumentationSystem.bootstrap(tracer)
    MetricsSystem.bootstrap(metrics)
    LaunchTracing.emitAtLaunchComplete(serviceName: "launch-tracing-sample")
    LaunchMetrics.recordAtLaunchComplete(deferred: deferred, prewarm: prewarm)
}

let signposter = Signposter(subsystem: "dev.launchprof.sample", category: "launch")

func words(_ count: Int, seed: UInt64) -> [String] {
    var state = seed
    let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        var bits = state
        return String(
            decoding: (0..<(4 + Int(state >> 60))).map { _ in
                defer { bits /= 26 }
                return letters[Int(bits % 26)]
            }, as: UTF8.self)
    }
}

// The launch.
let templates = prewarm.register("templates", budget: .milliseconds(200)) {
    words(5_000, seed: 4).map { "<li>\($0)</li>" }
}
do { try prewarm.prewarm() } catch { fail("prewarm: \(error)") }

let config = signposter.withIntervalSignpost("load config") {
    signposter.withIntervalSignpost("parse") { Dictionary(uniqueKeysWithValues: words(2_000, seed: 1).enumerated().map { ($1, $0) }) }
}
LaunchTracker.recordMilestone("config loaded")

let index = signposter.withIntervalSignpost("build index") {
    let sorted = words(options.words, seed: 2).sorted()
    signposter.emitEvent("index sorted")
    return Dictionary(grouping: sorted.indices) { sorted[$0].prefix(3) }
}
LaunchTracker.recordMilestone("index built")

let workersDone = DispatchGroup()
let workers = (0..<options.workers).map { number in
    Thread {
        defer { workersDone.leave() }
        Tracer.setCurrentThreadName("worker \(number)")
        signposter.withIntervalSignpost("warm cache") {
            var cache = [UInt64](repeating: UInt64(number), count: 16 * 1024)
            for round in 0..<40 { for i in cache.indices { cache[i] = cache[i] &* 31 &+ UInt64(i ^ round) } }
            _ = cache.reduce(0, &+)
        }
    }
}
for worker in workers {
    workersDone.enter()
    worker.start()
}
workersDone.wait()
LaunchTracker.recordMilestone("workers ready")

deferred.deferUntilIdle("analytics") { _ = words(10_000, seed: 3).joined().utf8.count }
deferred.deferUntilIdle("search suggestions", priority: .low) { _ = words(10_000, seed: 5).sorted().count }

/// Everything as JSON, one object a line.
func emit(_ key: String, _ value: Any) {
    guard let data = try? JSONSerialization.data(withJSONObject: [key: value], options: [.sortedKeys]) else {
        fail("cannot encode \(key) as JSON")
    }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func metricCount() -> Int { metrics.timers.count + metrics.counters.count }

// What the exporters made before launch complete: they must have made nothing.
emit("before", ["spans": tracer.activeSpans.count + tracer.finishedSpans.count, "metrics": metricCount()])
LaunchTracker.recordLaunchComplete()

// After launch: use the prewarmed value, let the deferred tasks finish.
do { _ = try templates.value.count + config.count + index.count } catch { fail("templates: \(error)") }
guard deferred.waitUntilFinished(timeout: .seconds(30)) else { fail("the deferred tasks did not finish in 30 s") }
guard options.export else { exit(0) }

// The exporters run in the background after launch complete; wait for them.
let deadline = DispatchTime.now() + .seconds(30)
while DispatchTime.now() < deadline {
    let launchEnded = tracer.finishedSpans.contains { $0.operationName == "launch" }
    let tasksRecorded = metrics.timers(label: "launchprof_deferred_task_run").count == 2
    let prewarmRecorded = metrics.counterTotal(label: "launchprof_prewarm_items") == 1
    if launchEnded && tasksRecorded && prewarmRecorded { break }
    usleep(1_000)
}

let timeline = LaunchTimeline.current()
emit(
    "timeline",
    [
        "spawn": timeline.spawnNanoseconds.map { $0 as Any } ?? NSNull(),
        "processEntry": timeline.processEntryNanoseconds,
        "main": timeline.mainNanoseconds.map { $0 as Any } ?? NSNull(),
        "launchComplete": timeline.launchCompleteNanoseconds.map { $0 as Any } ?? NSNull(),
        "monotonicZeroUnix": timeline.monotonicZeroUnixNanoseconds,
        "pid": Int(getpid()),
        "intervals": timeline.intervals.map {
            ["name": $0.name, "start": $0.start, "end": $0.end.map { $0 as Any } ?? NSNull(), "thread": $0.threadID] as [String: Any]
        },
    ])

func json(_ attribute: SpanAttribute) -> Any {
    switch attribute {
    case .int32(let value): value
    case .int64(let value): value
    case .double(let value): value
    case .bool(let value): value
    case .string(let value): value
    default: "\(attribute)"
    }
}

for span in tracer.finishedSpans {
    var attributes: [String: Any] = [:]
    span.attributes.forEach { key, value in attributes[key] = json(value) }
    emit(
        "span",
        [
            "name": span.operationName, "traceID": span.traceID, "spanID": span.spanID,
            "parentSpanID": span.parentSpanID.map { $0 as Any } ?? NSNull(),
            "start": span.startInstant.nanosecondsSinceEpoch, "end": span.endInstant.nanosecondsSinceEpoch,
            "attributes": attributes,
            "events": span.events.map { ["name": $0.name, "time": $0.nanosecondsSinceEpoch] as [String: Any] },
            "status": span.status.map { "\($0.code)" } ?? "unset",
        ])
}
for timer in metrics.timers {
    emit(
        "metric",
        ["kind": "timer", "label": timer.label, "dimensions": Dictionary(uniqueKeysWithValues: timer.dimensions), "values": timer.values])
}
for counter in metrics.counters {
    emit(
        "metric",
        [
            "kind": "counter", "label": counter.label, "dimensions": Dictionary(uniqueKeysWithValues: counter.dimensions),
            "total": counter.totalValue,
        ])
}
