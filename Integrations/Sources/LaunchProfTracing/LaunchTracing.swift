import LaunchProf
import Tracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The launch as OpenTelemetry-style spans, through swift-distributed-tracing:
/// one `launch` span from spawn (process entry when no harness spawned the
/// process) to launch complete, a child span for each signpost interval that
/// began during the launch (nested as on its thread), and the milestones as
/// events of `launch`. A program that bootstraps swift-otel ships them to any
/// OTLP collector:
///
/// ```swift
/// LaunchTracing.emitAtLaunchComplete(serviceName: "checkout")
/// ```
///
/// Nothing runs before launch complete: registering is one handler appended
/// to a list, and the spans are made on a background task after the harness
/// and systemd have been told the process is ready.
public enum LaunchTracing {
    /// Emits the launch through `tracer` (the bootstrapped one by default)
    /// once it is complete, on a background task.
    public static func emitAtLaunchComplete(serviceName: String? = nil, tracer: (any Tracing.Tracer)? = nil) {
        LaunchTracker.onLaunchComplete {
            Task.detached(priority: .background) {
                let chosen: any Tracing.Tracer = tracer ?? InstrumentationSystem.tracer
                emit(LaunchTimeline.current(), serviceName: serviceName, tracer: chosen)
            }
        }
    }

    /// Emits `timeline` through `tracer` now, and returns the number of spans made.
    @discardableResult
    public static func emit<T: Tracing.Tracer>(_ timeline: LaunchTimeline, serviceName: String? = nil, tracer: T) -> Int {
        let start = timeline.spawnNanoseconds ?? timeline.processEntryNanoseconds
        let end = timeline.launchCompleteNanoseconds ?? timeline.events.last?.timestamp ?? start
        func instant(_ nanoseconds: UInt64) -> LaunchInstant {
            LaunchInstant(nanosecondsSinceEpoch: UInt64(clamping: timeline.unixNanoseconds(nanoseconds)))
        }
        let launch = tracer.startSpan("launch", context: .topLevel, ofKind: .internal, at: instant(start))
        launch.attributes["process.pid"] = Int(getpid())
        if let path = executablePath() {
            launch.attributes["process.executable.path"] = path
            launch.attributes["process.executable.name"] = String(path.split(separator: "/").last ?? Substring(path))
        }
        if let serviceName { launch.attributes["service.name"] = serviceName }
        launch.attributes["launchprof.time_origin"] = timeline.spawnNanoseconds == nil ? "entry" : "spawn"
        launch.attributes["launchprof.lost_events"] = timeline.lostEvents
        launch.addEvent(SpanEvent(name: "process entry", at: instant(timeline.processEntryNanoseconds)))
        if let main = timeline.mainNanoseconds { launch.addEvent(SpanEvent(name: "main", at: instant(main))) }
        for event in timeline.events
        where event.kind == .milestone && !(event.name == "main" && event.timestamp == timeline.mainNanoseconds) {
            // Thread 0: recorded with tracing off, where the thread is not kept.
            let attributes: SpanAttributes = event.threadID == 0 ? [:] : ["thread.id": .int64(Int64(event.threadID))]
            launch.addEvent(SpanEvent(name: event.name, at: instant(event.timestamp), attributes: attributes))
        }
        // Intervals that began during the launch, outer before inner; a slice
        // (begun and ended on one thread) nests in the innermost open slice of
        // its thread that contains it.
        let during = timeline.intervals.filter { $0.start <= end }
            .sorted { ($0.start, ($1.end ?? end)) < ($1.start, ($0.end ?? end)) }
        var open: [UInt32: [(end: UInt64, span: T.Span)]] = [:]
        var count = 1
        for interval in during {
            let finish = interval.end ?? end
            var parent = launch
            if interval.threadID == interval.endThreadID {
                var stack = open[interval.threadID] ?? []
                while let top = stack.last, top.end <= interval.start { stack.removeLast() }
                if let top = stack.last, finish <= top.end { parent = top.span }
                open[interval.threadID] = stack
            }
            let span = tracer.startSpan(interval.name, context: parent.context, ofKind: .internal, at: instant(interval.start))
            span.attributes["thread.id"] = Int(interval.threadID)
            span.attributes["launchprof.subsystem"] = interval.subsystem
            span.attributes["launchprof.category"] = interval.category
            if let value = interval.value { span.attributes["launchprof.value"] = Int(value) }
            if interval.end == nil {
                span.attributes["launchprof.unfinished"] = true
            }
            for event in timeline.events
            where event.kind == .event && event.threadID == interval.threadID
                && interval.start <= event.timestamp && event.timestamp <= finish
            {
                span.addEvent(SpanEvent(name: event.name, at: instant(event.timestamp)))
            }
            span.end(at: instant(finish))
            if interval.threadID == interval.endThreadID { open[interval.threadID, default: []].append((finish, span)) }
            count += 1
        }
        if timeline.launchCompleteNanoseconds == nil {
            launch.setStatus(SpanStatus(code: .error, message: "the launch never recorded launch complete"))
        }
        launch.end(at: instant(end))
        return count
    }

    /// This process's executable (the target of `/proc/self/exe`), as
    /// OpenTelemetry's process.executable.path asks.
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A point in time for swift-distributed-tracing, in Unix nanoseconds.
public struct LaunchInstant: TracerInstant {
    /// Nanoseconds since the Unix epoch.
    public var nanosecondsSinceEpoch: UInt64

    /// The instant `nanosecondsSinceEpoch` after the epoch.
    public init(nanosecondsSinceEpoch: UInt64) { self.nanosecondsSinceEpoch = nanosecondsSinceEpoch }

    public static func < (lhs: LaunchInstant, rhs: LaunchInstant) -> Bool { lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch }
}
