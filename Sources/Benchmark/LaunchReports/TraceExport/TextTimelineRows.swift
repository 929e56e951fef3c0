import LaunchAnalysis
import LaunchSupport

/// The lines of a text timeline, before they are laid out in columns.
struct TextTimelineRows {
    let trace: Trace
    let intervals: TraceIntervals

    struct Row {
        var timestamp: UInt64
        var thread: String
        var kind: String
        var name: String
        var duration: String?
    }

    /// Every event and interval, sorted by time (then by the order added).
    func rows() -> [Row] {
        let rows = headerRows() + intervalRows() + pointRows() + unmatchedEndRows()
        return rows.enumerated()
            .sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }

    /// Spawn and entry from the header; main and launch complete too when the
    /// ring lost their events.
    private func headerRows() -> [Row] {
        let header = trace.header
        let process = thread(header.pid)
        var rows: [Row] = []
        if let spawn = header.spawnNanoseconds {
            rows.append(Row(timestamp: spawn, thread: "harness", kind: "spawn", name: "spawn"))
        }
        if let entry = header.processEntryNanoseconds {
            rows.append(Row(timestamp: entry, thread: process, kind: "entry", name: "process entry"))
        }
        if let main = header.mainNanoseconds, !trace.hasMainEvent {
            rows.append(Row(timestamp: main, thread: process, kind: "milestone", name: "main"))
        }
        if let complete = header.launchCompleteNanoseconds, !trace.hasLaunchCompleteEvent {
            rows.append(Row(timestamp: complete, thread: process, kind: "launch complete", name: "launch complete"))
        }
        return rows
    }

    private func intervalRows() -> [Row] {
        let slices = intervals.slices.map { ($0, "slice") }
        let async = intervals.asyncIntervals.map { ($0, "async") }
        return (slices + async).map { interval, kind in
            var threads = thread(interval.beginThreadID)
            if interval.endThreadID != interval.beginThreadID { threads += " -> " + thread(interval.endThreadID) }
            var duration = ExportTimeFormat.milliseconds(interval.duration) + " ms"
            if interval.isUnfinished { duration += " (unfinished)" }
            return Row(
                timestamp: interval.startTimestamp, thread: threads, kind: kind,
                name: label(interval.begin) + arguments(interval.begin.argument, interval.end?.argument),
                duration: duration)
        }
    }

    private func pointRows() -> [Row] {
        trace.events.compactMap { event in
            guard event.kind != .intervalBegin, event.kind != .intervalEnd else { return nil }
            return Row(
                timestamp: event.timestamp, thread: thread(event.threadID), kind: event.kind.description,
                name: label(event) + arguments(event.argument, nil))
        }
    }

    private func unmatchedEndRows() -> [Row] {
        intervals.unmatchedEnds.map { end in
            Row(
                timestamp: end.timestamp, thread: thread(end.threadID), kind: "end without begin",
                name: label(end) + arguments(nil, end.argument))
        }
    }

    // MARK: - Cells

    /// "4711 lp-worker-1", or the bare tid for an unnamed thread.
    private func thread(_ tid: UInt32) -> String {
        trace.threadNames[tid].map { "\(tid) \(TerminalText.sanitized($0))" } ?? String(tid)
    }

    /// The name, with its category unless it is the launch's own; control
    /// characters escaped (the program chose them).
    private func label(_ event: TraceEvent) -> String {
        TerminalText.sanitized(event.categoryIndex == 0 ? event.name : "\(event.name) [\(event.category)]")
    }

    private func arguments(_ begin: Int64?, _ end: Int64?) -> String {
        switch (begin, end) {
        case (nil, nil): ""
        case (let value?, nil): " value=\(value)"
        case (nil, let value?): " end value=\(value)"
        case (let first?, let second?): " value=\(first) end value=\(second)"
        }
    }
}
