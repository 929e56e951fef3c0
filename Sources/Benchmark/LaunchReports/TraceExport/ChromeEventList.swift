import LaunchAnalysis

/// The `traceEvents` of one Chrome export, built up by kind and sorted once.
struct ChromeEventList {
    let trace: Trace
    let origin: UInt64
    private var metadata: [String] = []
    private var timed: [Entry] = []

    /// One timed event and how it sorts among events of the same timestamp:
    /// ends close before begins open, outer slices before inner ones.
    private struct Entry {
        var timestamp: UInt64
        var rank: Int
        var duration: UInt64
        var sequence: Int
        var json: String
    }

    /// Category of the events the launch itself produces.
    static let launchCategory = "launchprof/launch"

    init(trace: Trace) {
        self.trace = trace
        self.origin = trace.timeOrigin.nanoseconds
    }

    func sortedLines() -> [String] {
        let sorted = timed.sorted {
            ($0.timestamp, $0.rank, $1.duration, $0.sequence) < ($1.timestamp, $1.rank, $0.duration, $1.sequence)
        }
        return metadata + sorted.map(\.json)
    }

    // MARK: - Metadata

    /// Names the process (after its main thread, whose tid is the pid) and
    /// every named thread.
    mutating func addMetadata() {
        let pid = trace.header.pid
        // Threads that only the sampler saw are named too.
        let names = trace.threadNames.merging(trace.sampling?.threadNames ?? [:]) { recorded, _ in recorded }
        let processName = names[pid] ?? "pid \(pid)"
        metadata.append(metadataEvent("process_name", tid: pid, name: processName))
        for (tid, name) in names.sorted(by: { $0.key < $1.key }) {
            metadata.append(metadataEvent("thread_name", tid: tid, name: name))
        }
    }

    private func metadataEvent(_ kind: String, tid: UInt32, name: String) -> String {
        JSONText.object([
            ("name", JSONText.string(kind)), ("ph", "\"M\""), ("pid", String(trace.header.pid)),
            ("tid", String(tid)), ("args", JSONText.object([("name", JSONText.string(name))])),
        ])
    }

    // MARK: - Launch marks

    /// Spawn and process entry from the header; main and launch complete
    /// too when their events are not in the ring (lost to overflow).
    mutating func addHeaderInstants() {
        let header = trace.header
        let pid = header.pid
        if let spawn = header.spawnNanoseconds { addInstant("spawn", at: spawn, scope: "p", tid: pid) }
        if let entry = header.processEntryNanoseconds { addInstant("process entry", at: entry, scope: "p", tid: pid) }
        if let main = header.mainNanoseconds, !trace.hasMainEvent {
            addInstant("main", at: main, scope: "p", tid: pid)
        }
        if let complete = header.launchCompleteNanoseconds, !trace.hasLaunchCompleteEvent {
            addInstant("launch complete", at: complete, scope: "p", tid: pid)
        }
    }

    private mutating func addInstant(_ name: String, at timestamp: UInt64, scope: String, tid: UInt32) {
        add(
            timestamp, rank: 3,
            fields: [
                ("name", JSONText.string(name)), ("cat", JSONText.string(Self.launchCategory)), ("ph", "\"i\""),
                ("ts", ts(timestamp)), ("s", JSONText.string(scope)), ("pid", String(trace.header.pid)),
                ("tid", String(tid)),
            ])
    }

    // MARK: - Intervals

    mutating func addSlices(_ slices: [TraceInterval]) {
        for slice in slices {
            add(
                slice.startTimestamp, rank: 1, duration: slice.duration,
                fields: [
                    ("name", JSONText.string(slice.name)), ("cat", JSONText.string(slice.category.description)),
                    ("ph", "\"X\""), ("ts", ts(slice.startTimestamp)),
                    ("dur", ExportTimeFormat.microseconds(from: slice.startTimestamp, to: slice.endTimestamp)),
                    ("pid", String(trace.header.pid)), ("tid", String(slice.beginThreadID)),
                    ("args", intervalArguments(slice)),
                ])
        }
    }

    mutating func addAsyncIntervals(_ intervals: [TraceInterval]) {
        for interval in intervals {
            let common: [(String, String)] = [
                ("name", JSONText.string(interval.name)), ("cat", JSONText.string(interval.category.description)),
            ]
            let id = ("id", JSONText.string("0x" + String(interval.id, radix: 16)))
            add(
                interval.startTimestamp, rank: 2,
                fields: common + [
                    ("ph", "\"b\""), ("ts", ts(interval.startTimestamp)), id,
                    ("pid", String(trace.header.pid)), ("tid", String(interval.beginThreadID)),
                    ("args", intervalArguments(interval)),
                ])
            add(
                interval.endTimestamp, rank: 0,
                fields: common + [
                    ("ph", "\"e\""), ("ts", ts(interval.endTimestamp)), id,
                    ("pid", String(trace.header.pid)), ("tid", String(interval.endThreadID)),
                ])
        }
    }

    private func intervalArguments(_ interval: TraceInterval) -> String {
        var members = [("signpost_id", JSONText.string("0x" + String(interval.id, radix: 16)))]
        if let value = interval.begin.argument { members.append(("value", String(value))) }
        if let value = interval.end?.argument { members.append(("end_value", String(value))) }
        if interval.isUnfinished { members.append(("unfinished", "true")) }
        // The thread's CPU time inside it (tracer format, flag bit 1), in µs
        // as the timeline's own times.
        if let onCPU = interval.onCPU, let offCPU = interval.offCPU {
            members.append(("on_cpu_us", ExportTimeFormat.microseconds(from: 0, to: onCPU)))
            members.append(("off_cpu_us", ExportTimeFormat.microseconds(from: 0, to: offCPU)))
        }
        return JSONText.object(members)
    }

    // MARK: - Point events

    /// Milestones and launch complete (process-scoped) and plain events
    /// (thread-scoped), with their numeric argument when they carry one.
    mutating func addPointEvents() {
        for event in trace.events {
            let scope: String
            switch event.kind {
            case .milestone, .launchComplete: scope = "p"
            case .event: scope = "t"
            case .intervalBegin, .intervalEnd: continue
            }
            var fields = pointFields(event, name: event.name, scope: scope)
            var arguments: [(String, String)] = []
            if let value = event.argument { arguments.append(("value", String(value))) }
            if event.id != 0 { arguments.append(("signpost_id", JSONText.string("0x" + String(event.id, radix: 16)))) }
            if !arguments.isEmpty { fields.append(("args", JSONText.object(arguments))) }
            add(event.timestamp, rank: 3, fields: fields)
        }
    }

    /// Ends without a begin, kept visible as thread instants.
    mutating func addUnmatchedEnds(_ ends: [TraceEvent]) {
        for end in ends {
            var arguments = [("unmatched_end", "true"), ("signpost_id", JSONText.string("0x" + String(end.id, radix: 16)))]
            if let value = end.argument { arguments.append(("end_value", String(value))) }
            add(
                end.timestamp, rank: 3,
                fields: pointFields(end, name: "\(end.name) (end without begin)", scope: "t")
                    + [("args", JSONText.object(arguments))])
        }
    }

    private func pointFields(_ event: TraceEvent, name: String, scope: String) -> [(String, String)] {
        [
            ("name", JSONText.string(name)), ("cat", JSONText.string(event.category.description)), ("ph", "\"i\""),
            ("ts", ts(event.timestamp)), ("s", JSONText.string(scope)), ("pid", String(trace.header.pid)),
            ("tid", String(event.threadID)),
        ]
    }

    // MARK: - Helpers

    func ts(_ timestamp: UInt64) -> String {
        ExportTimeFormat.microseconds(from: origin, to: timestamp)
    }

    mutating func add(_ timestamp: UInt64, rank: Int, duration: UInt64 = 0, fields: [(String, String)]) {
        timed.append(
            Entry(
                timestamp: timestamp, rank: rank, duration: duration, sequence: timed.count, json: JSONText.object(fields)))
    }
}
