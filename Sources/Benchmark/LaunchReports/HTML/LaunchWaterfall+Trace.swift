import LaunchAnalysis
import LaunchEngine

// MARK: - A trace's threads

extension LaunchWaterfall {
    /// Adds one lane per thread of `trace`: its intervals (deferred and
    /// prewarm tasks told apart by their category), events and milestones.
    ///
    /// The trace is a launch of its own (`launchprof record`), not the median
    /// run, so its times are its own since its spawn. A trace of a program
    /// not started by launchprof knows no spawn: it is aligned at process
    /// entry with the median run, and the note says so.
    mutating func addLanes(of trace: Trace) {
        let origin = traceOrigin(trace)
        traceNotes.append(origin.note)
        if trace.header.lostEvents > 0 {
            traceNotes.append("the trace lost \(trace.header.lostEvents) events (ring full): intervals may be missing")
        }
        let intervals = trace.pairIntervals()
        let asyncKeys = Set(intervals.asyncIntervals.map(Self.key))
        var shown = intervals.slices + intervals.asyncIntervals
        if shown.count > Self.maximumBars {
            hiddenIntervals = shown.count - Self.maximumBars
            let all = shown
            let longest = Set(all.indices.sorted { (all[$1].duration, $0) < (all[$0].duration, $1) }.prefix(Self.maximumBars))
            shown = all.indices.filter(longest.contains).map { all[$0] }
            traceNotes.append("\(hiddenIntervals) shorter intervals are not drawn; `launchprof export` lists them all")
        }
        let time = { (timestamp: UInt64) in Double(timestamp) - origin.nanoseconds }
        var byThread: [UInt32: Lane] = [:]
        var depths = SliceDepths()
        for interval in shown.sorted(by: { ($0.startTimestamp, $1.duration) < ($1.startTimestamp, $0.duration) }) {
            let isAsync = asyncKeys.contains(Self.key(interval))
            var bar = Bar(
                label: interval.name, start: time(interval.startTimestamp), end: time(interval.endTimestamp),
                kind: Self.kind(of: interval, isAsync: isAsync), note: note(for: interval, in: trace))
            if !isAsync { bar.depth = depths.depth(of: interval) }
            byThread[interval.beginThreadID, default: emptyLane(interval.beginThreadID, trace)].bars.append(bar)
        }
        for event in trace.events where [.event, .milestone, .launchComplete].contains(event.kind) {
            let name = event.kind == .launchComplete ? "launch complete" : event.name
            let note = event.argument.map { "value \($0)" }
            let point = Point(name: name, time: time(event.timestamp), isMilestone: event.kind != .event, note: note)
            byThread[event.threadID, default: emptyLane(event.threadID, trace)].points.append(point)
        }
        lanes = byThread.sorted { first, second in
            // The main thread first, then by first activity.
            (first.key == trace.header.pid ? 0 : 1, firstTime(first.value), first.key)
                < (second.key == trace.header.pid ? 0 : 1, firstTime(second.value), second.key)
        }.map(\.value)
    }

    private func traceOrigin(_ trace: Trace) -> (nanoseconds: Double, note: String) {
        let file = trace.path
        if let spawn = trace.header.spawnNanoseconds {
            return (Double(spawn), "threads below: trace \(file), one launch of its own, times since its spawn")
        }
        if let entry = trace.header.processEntryNanoseconds, let runEntry = run?.processEntry {
            return (
                Double(entry) - Double(runEntry),
                "threads below: trace \(file), one launch not started by launchprof (spawn unknown), "
                    + "aligned at process entry with the median run"
            )
        }
        let first = trace.events.first?.timestamp ?? 0
        return (Double(first), "threads below: trace \(file), spawn and entry unknown, times since its first event")
    }

    private func emptyLane(_ tid: UInt32, _ trace: Trace) -> Lane {
        let name = trace.threadNames[tid]
        let title =
            tid == trace.header.pid
            ? "main thread\(name.map { " · \($0)" } ?? "") (tid \(tid))"
            : "\(name ?? "thread") (tid \(tid))"
        return Lane(title: title, bars: [], points: [])
    }

    private func firstTime(_ lane: Lane) -> Double {
        min(lane.bars.map(\.start).min() ?? .infinity, lane.points.map(\.time).min() ?? .infinity)
    }

    private func note(for interval: TraceInterval, in trace: Trace) -> String? {
        var parts: [String] = []
        if interval.begin.categoryIndex != 0 { parts.append(interval.category.description) }
        if interval.endThreadID != interval.beginThreadID {
            let end = trace.threadNames[interval.endThreadID] ?? "tid \(interval.endThreadID)"
            parts.append("ended on \(end)")
        }
        if interval.isUnfinished { parts.append("unfinished: no end in the trace, drawn to its last event") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// Deferred-initializer tasks and prewarmed items are intervals in
    /// LaunchProf's own categories (`launchprof/deferred`, `launchprof/prewarm`).
    static func kind(of interval: TraceInterval, isAsync: Bool) -> BarKind {
        switch (interval.category.subsystem, interval.category.category) {
        case ("launchprof", "deferred"): .deferred
        case ("launchprof", "prewarm"): .prewarm
        default: isAsync ? .asyncInterval : .slice
        }
    }

    private struct IntervalKey: Hashable {
        var start: UInt64
        var thread: UInt32
        var name: String
        var id: UInt64
        var category: Int
    }

    private static func key(_ interval: TraceInterval) -> IntervalKey {
        IntervalKey(
            start: interval.startTimestamp, thread: interval.beginThreadID, name: interval.name, id: interval.id,
            category: interval.begin.categoryIndex)
    }

    /// Nesting depth of slices per thread, for slices given in start order.
    private struct SliceDepths {
        var open: [UInt32: [UInt64]] = [:]  // per thread: end times of enclosing slices

        mutating func depth(of interval: TraceInterval) -> Int {
            var stack = open[interval.beginThreadID, default: []]
            while let end = stack.last, end <= interval.startTimestamp { stack.removeLast() }
            let depth = stack.count
            stack.append(interval.endTimestamp)
            open[interval.beginThreadID] = stack
            return depth
        }
    }
}
