import Foundation
import Glibc
import LaunchAnalysis
import LaunchEngine

/// A trace as OTLP/JSON: an `ExportTraceServiceRequest` in the protobuf JSON
/// mapping as OpenTelemetry specifies it for OTLP/HTTP (`launchprof export
/// --format otlp`), for collectors and tools that read files.
///
/// - One `launch` span from spawn (process entry when the harness did not
///   spawn the process) to launch complete (the trace's last event when the
///   launch never completed, with an error status saying so). Its events are
///   the header's process entry and main, and every milestone.
/// - A span per signpost interval: slices nest in the enclosing slice of
///   their thread, intervals that began during the launch are children of
///   `launch`, later ones are roots of the same trace. Unfinished intervals
///   end at the trace's last event and say so. Point events become span events
///   of the innermost slice of their thread that contains them, else of `launch`.
/// - Attributes follow the semantic conventions: `process.pid`,
///   `process.executable.name`, `service.name` (given, else the executable's
///   name), `thread.id` and `thread.name`; launchprof's own under `launchprof.`.
/// - Times: the trace holds `CLOCK_MONOTONIC` nanoseconds. They are placed in
///   Unix time through the trace file's modification time, which the writer
///   set when it wrote the header's `written` time (off by at most the write's
///   duration); without it, through this boot's realtime−monotonic offset.
/// - IDs: `traceId` and `spanId` are lowercase hex (OTLP/JSON's rule, not
///   protobuf's base64), derived from the trace's pid and times, so the same
///   trace always exports the same IDs.
package struct OTLPTraceExporter: TraceExporter {
    /// `service.name`; nil: the executable's name.
    package var serviceName: String?
    /// Unix time in nanoseconds of `CLOCK_MONOTONIC` zero; nil: from the file (see above).
    package var monotonicZeroUnixNanoseconds: Int64?

    /// An exporter.
    package init(serviceName: String? = nil, monotonicZeroUnixNanoseconds: Int64? = nil) {
        self.serviceName = serviceName
        self.monotonicZeroUnixNanoseconds = monotonicZeroUnixNanoseconds
    }

    package func export(_ trace: Trace) -> String {
        let zero = monotonicZeroUnixNanoseconds ?? Self.monotonicZero(for: trace)
        func unix(_ monotonic: UInt64) -> String { String(Int64(monotonic) &+ zero) }
        let executable = trace.threadNames[trace.header.pid] ?? URL(fileURLWithPath: trace.path).deletingPathExtension().lastPathComponent
        let ids = IDs(seed: [
            UInt64(trace.header.pid), trace.header.processEntryNanoseconds ?? 0, trace.header.writtenNanoseconds ?? 0,
            trace.timeOrigin.nanoseconds,
        ])
        let start = trace.timeOrigin.nanoseconds
        let complete = trace.header.launchCompleteNanoseconds
        let end = complete ?? trace.lastTimestamp
        let intervals = trace.pairIntervals()

        var spans: [String] = []
        let launchID = ids.span(0)
        var launchEvents: [String] = []
        if let entry = trace.header.processEntryNanoseconds { launchEvents.append(Self.event("process entry", unix(entry), [])) }
        if let main = trace.header.mainNanoseconds { launchEvents.append(Self.event("main", unix(main), [])) }
        // Slices first (in pairing order: outer before inner), then async intervals.
        let all = intervals.slices.map { ($0, true) } + intervals.asyncIntervals.map { ($0, false) }
        let spanIDs = all.indices.map { ids.span(UInt64($0) + 1) }
        let (parents, holders) = Self.nesting(slices: intervals.slices, events: trace.events)
        var pointEvents: [Int: [String]] = [:]  // slice index -> its events; -1: launch
        for (position, event) in trace.events.enumerated() where event.kind == .milestone || event.kind == .event {
            let attributes =
                [Self.attribute("thread.id", int: Int64(event.threadID))]
                + (event.argument.map { [Self.attribute("launchprof.value", int: $0)] } ?? [])
            let rendered = Self.event(event.name, unix(event.timestamp), attributes)
            if event.kind == .milestone {
                // recordLaunchStart's milestone is the header's main, already there.
                if event.name == "main", trace.header.mainNanoseconds == event.timestamp { continue }
                launchEvents.append(rendered)
            } else {
                pointEvents[holders[position] ?? -1, default: []].append(rendered)
            }
        }
        for (index, (interval, isSlice)) in all.enumerated() {
            // The innermost enclosing slice of its thread, else launch (when it began during it).
            var parent: String? = interval.startTimestamp <= end ? launchID : nil
            if isSlice, let enclosing = parents[index] { parent = spanIDs[enclosing] }
            var attributes = [
                Self.attribute("thread.id", int: Int64(interval.beginThreadID)),
                Self.attribute("launchprof.subsystem", string: interval.category.subsystem),
                Self.attribute("launchprof.category", string: interval.category.category),
            ]
            if let name = trace.threadNames[interval.beginThreadID] { attributes.append(Self.attribute("thread.name", string: name)) }
            if interval.endThreadID != interval.beginThreadID {
                attributes.append(Self.attribute("launchprof.end_thread.id", int: Int64(interval.endThreadID)))
            }
            if let value = interval.begin.argument { attributes.append(Self.attribute("launchprof.value", int: value)) }
            if interval.isUnfinished { attributes.append(Self.attribute("launchprof.unfinished", bool: true)) }
            spans.append(
                Self.span(
                    traceID: ids.trace, spanID: spanIDs[index], parent: parent, name: interval.name,
                    start: unix(interval.startTimestamp), end: unix(interval.endTimestamp), attributes: attributes,
                    events: isSlice ? pointEvents[index] ?? [] : [],
                    status: interval.isUnfinished ? (2, "the interval had not ended when the trace was written") : nil))
        }
        var launchAttributes = [
            Self.attribute("launchprof.time_origin", string: trace.timeOrigin.label),
            Self.attribute("launchprof.lost_events", int: Int64(clamping: trace.header.lostEvents)),
        ]
        if let entry = trace.header.processEntryNanoseconds {
            launchAttributes.append(Self.attribute("launchprof.process_entry_ns", int: Int64(clamping: entry &- start)))
        }
        spans.insert(
            Self.span(
                traceID: ids.trace, spanID: launchID, parent: nil, name: "launch", start: unix(start), end: unix(end),
                attributes: launchAttributes, events: launchEvents + (pointEvents[-1] ?? []),
                status: complete == nil ? (2, "the launch never recorded launch complete") : (1, nil)), at: 0)

        let resource = [
            Self.attribute("service.name", string: serviceName ?? executable),
            Self.attribute("process.pid", int: Int64(trace.header.pid)),
            Self.attribute("process.executable.name", string: executable),
        ]
        return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[" + resource.joined(separator: ",")
            + "]},\"scopeSpans\":[{\"scope\":{\"name\":\"launchprof\",\"version\":" + JSONText.string(launchprofVersion)
            + "},\"spans\":[\n" + spans.joined(separator: ",\n") + "\n]}]}]}\n"
    }

    /// For each slice (by index) the slice it nests in, and for each point
    /// event (by position in `events`) the innermost slice of its thread
    /// that contains it: one sweep per thread with a stack, linear overall.
    /// `slices` come in pairing order (outer before inner, by start).
    static func nesting(slices: [TraceInterval], events: [TraceEvent]) -> (parents: [Int: Int], holders: [Int: Int]) {
        var parents: [Int: Int] = [:]
        var holders: [Int: Int] = [:]
        let slicesByThread = Dictionary(grouping: slices.indices, by: { slices[$0].beginThreadID })
        let eventsByThread = Dictionary(
            grouping: events.indices.filter { events[$0].kind == .event }, by: { events[$0].threadID })
        for (thread, indices) in slicesByThread {
            let points = eventsByThread[thread] ?? []
            var stack: [Int] = []
            var next = 0
            func popEnded(before time: UInt64, inclusive: Bool) {
                while let top = stack.last, inclusive ? slices[top].endTimestamp <= time : slices[top].endTimestamp < time {
                    stack.removeLast()
                }
            }
            for index in indices {
                let start = slices[index].startTimestamp
                // Point events before this slice starts belong to what is open now.
                while next < points.count, events[points[next]].timestamp < start {
                    popEnded(before: events[points[next]].timestamp, inclusive: false)
                    if let top = stack.last { holders[points[next]] = top }
                    next += 1
                }
                popEnded(before: start, inclusive: true)
                if let top = stack.last { parents[index] = top }
                stack.append(index)
            }
            while next < points.count {
                popEnded(before: events[points[next]].timestamp, inclusive: false)
                if let top = stack.last { holders[points[next]] = top }
                next += 1
            }
        }
        return (parents, holders)
    }

    // MARK: - JSON pieces

    static func span(
        traceID: String, spanID: String, parent: String?, name: String, start: String, end: String,
        attributes: [String], events: [String], status: (code: Int, message: String?)?
    ) -> String {
        var members = [
            "\"traceId\":\"\(traceID)\"", "\"spanId\":\"\(spanID)\"",
        ]
        if let parent { members.append("\"parentSpanId\":\"\(parent)\"") }
        members += [
            "\"name\":" + JSONText.string(name), "\"kind\":1",
            "\"startTimeUnixNano\":\"\(start)\"", "\"endTimeUnixNano\":\"\(end)\"",
            "\"attributes\":[" + attributes.joined(separator: ",") + "]",
            "\"events\":[" + events.joined(separator: ",") + "]",
        ]
        if let status {
            members.append(
                "\"status\":{\"code\":\(status.code)" + (status.message.map { ",\"message\":" + JSONText.string($0) } ?? "") + "}")
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func event(_ name: String, _ time: String, _ attributes: [String]) -> String {
        "{\"timeUnixNano\":\"\(time)\",\"name\":" + JSONText.string(name) + ",\"attributes\":[" + attributes.joined(separator: ",") + "]}"
    }

    static func attribute(_ key: String, string value: String) -> String {
        "{\"key\":\"\(key)\",\"value\":{\"stringValue\":" + JSONText.string(value) + "}}"
    }

    static func attribute(_ key: String, int value: Int64) -> String {
        "{\"key\":\"\(key)\",\"value\":{\"intValue\":\"\(value)\"}}"
    }

    static func attribute(_ key: String, bool value: Bool) -> String {
        "{\"key\":\"\(key)\",\"value\":{\"boolValue\":\(value)}}"
    }

    /// Unix nanoseconds of `CLOCK_MONOTONIC` zero for `trace` (see the type's notes).
    static func monotonicZero(for trace: Trace) -> Int64 {
        var info = stat()
        if let written = trace.header.writtenNanoseconds, stat(trace.path, &info) == 0 {
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            return modified &- Int64(clamping: written)
        }
        var real = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        return (Int64(real.tv_sec) - Int64(monotonic.tv_sec)) * 1_000_000_000 + Int64(real.tv_nsec) - Int64(monotonic.tv_nsec)
    }

    /// Deterministic IDs from a seed (SplitMix64), as lowercase hex.
    struct IDs {
        let trace: String
        let base: UInt64

        init(seed: [UInt64]) {
            var state: UInt64 = 0x6C61_756E_6368_7072
            for value in seed { state = Self.mix(state ^ value) }
            trace = Self.hex(Self.mix(state &+ 1)) + Self.hex(Self.mix(state &+ 2))
            base = Self.mix(state &+ 3)
        }

        /// The `index`th span's id (never all zeros).
        func span(_ index: UInt64) -> String {
            let value = Self.mix(base &+ index)
            return Self.hex(value == 0 ? 1 : value)
        }

        static func mix(_ input: UInt64) -> UInt64 {
            var z = input &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        static func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
    }
}
