import LaunchAnalysis
import LaunchEngine

/// Chrome Trace Event JSON (object form), as Perfetto's JSON importer and
/// chrome://tracing read it.
///
/// - Slices (one thread, properly nested) are `X` events with `dur`; async
///   intervals are `b`/`e` pairs sharing `cat` and a hex `id`.
/// - Milestones and launch complete are process-scoped instants (`"s":"p"`),
///   plain events thread-scoped ones (`"s":"t"`); spawn, process entry and
///   main come from the header as instants too.
/// - `pid` is the traced process's pid and `tid` the real Linux tid, named by
///   `process_name` / `thread_name` metadata events.
/// - `ts` and `dur` are microseconds since spawn (process entry when the
///   harness did not spawn the process), printed with exactly 3 decimals so
///   no nanosecond is lost.
///
/// Key order is fixed and there is one event per line, so exports diff well.
package struct ChromeTraceExporter: TraceExporter {
    /// An exporter.
    package init() {}

    package func export(_ trace: Trace) -> String {
        let intervals = trace.pairIntervals()
        var events = ChromeEventList(trace: trace)
        events.addMetadata()
        events.addHeaderInstants()
        events.addSlices(intervals.slices)
        events.addAsyncIntervals(intervals.asyncIntervals)
        events.addPointEvents()
        events.addUnmatchedEnds(intervals.unmatchedEnds)
        events.addSamples()
        let otherData = ChromeTraceExporter.otherData(trace, intervals)
        return "{\"traceEvents\":[\n" + events.sortedLines().joined(separator: ",\n")
            + "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":" + otherData + "}\n"
    }

    /// What a reader of the JSON needs to judge it: format, loss, policy and
    /// the launch's absolute times. Nanosecond times are strings, since JSON
    /// numbers are doubles to most readers and would round them.
    static func otherData(_ trace: Trace, _ intervals: TraceIntervals) -> String {
        let header = trace.header
        var members: [(String, String)] = [
            ("generator", JSONText.string("launchprof \(launchprofVersion)")),
            ("trace_path", JSONText.string(trace.path)),
            ("trace_format_version", String(header.formatVersion)),
            ("pid", String(header.pid)),
            ("time_origin", JSONText.string(trace.timeOrigin.label)),
            ("policy", JSONText.string(header.policy.description)),
            ("capacity", String(header.capacity)),
            ("event_count", String(header.eventCount)),
            ("lost_events", String(header.lostEvents)),
            ("unfinished_intervals", String((intervals.slices + intervals.asyncIntervals).filter(\.isUnfinished).count)),
            ("unmatched_ends", String(intervals.unmatchedEnds.count)),
        ]
        if let sampling = trace.sampling {
            members.append(("sample_count", String(sampling.samples.count)))
            members.append(("sample_rate_hz", String(sampling.rate)))
        }
        let times: [(String, UInt64?)] = [
            ("spawn_ns", header.spawnNanoseconds), ("process_entry_ns", header.processEntryNanoseconds),
            ("main_ns", header.mainNanoseconds), ("launch_complete_ns", header.launchCompleteNanoseconds),
            ("written_ns", header.writtenNanoseconds),
        ]
        for case let (key, value?) in times { members.append((key, JSONText.string(String(value)))) }
        return JSONText.object(members)
    }
}
