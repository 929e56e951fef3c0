import LaunchAnalysis
import LaunchEngine

/// What a launch timeline shows for one target and mode: the median run's
/// phases and marks from the results and, when a trace of the program is
/// given, its intervals and events per thread. Times are nanoseconds since
/// spawn. Built apart from drawing so tests can check it directly.
package struct LaunchWaterfall: Sendable {
    package enum MarkKind: Sendable, Equatable { case spawn, processEntry, main, milestone, ready, exit }

    /// A moment of the median run, drawn as a vertical line across the chart.
    package struct Mark: Sendable, Equatable {
        package var name: String
        package var time: Double
        package var kind: MarkKind
    }

    package enum BarKind: Sendable, Equatable {
        case preMain, beforeMain, toReady, afterReady, slice, asyncInterval, deferred, prewarm
    }

    /// A span: a phase of the median run, or a traced interval.
    package struct Bar: Sendable, Equatable {
        package var label: String
        package var start: Double
        package var end: Double
        package var kind: BarKind
        /// Nesting depth among the slices of its thread.
        package var depth: Int = 0
        /// What else the hover text says (category, threads, unfinished).
        package var note: String?
        package var duration: Double { end - start }
    }

    /// A traced event or milestone: a moment on one thread.
    package struct Point: Sendable, Equatable {
        package var name: String
        package var time: Double
        package var isMilestone: Bool
        package var note: String?
    }

    /// One thread of the trace.
    package struct Lane: Sendable, Equatable {
        package var title: String
        package var bars: [Bar]
        package var points: [Point]
    }

    package var result: BenchmarkResult
    /// The median run; nil when no run succeeded.
    package var run: RunMeasurement?
    package var marks: [Mark] = []
    package var phases: [Bar] = []
    package var lanes: [Lane] = []
    /// Where the per-thread lanes came from and how their times line up.
    package var traceNotes: [String] = []
    /// Traced intervals left out to keep the chart readable (the shortest).
    package var hiddenIntervals = 0

    /// At most this many traced intervals are drawn, the longest ones.
    package static let maximumBars = 40

    package init(result: BenchmarkResult, trace: Trace? = nil) {
        self.result = result
        run = result.medianRun
        if let run { addPhases(of: run) }
        if let trace { addLanes(of: trace) }
    }

    /// The latest time drawn.
    package var end: Double {
        let times = marks.map(\.time) + phases.map(\.end) + lanes.flatMap { $0.bars.map(\.end) + $0.points.map(\.time) }
        return times.max() ?? 0
    }

    /// "run 8 of 20 (the median time to ready)".
    package var runDescription: String {
        guard let run else { return "no successful run" }
        return "run \(run.index + 1) of \(result.runs.count), the median \(result.headlineMetric.displayName)"
    }

    // MARK: - The median run

    private mutating func addPhases(of run: RunMeasurement) {
        let probeIsExit = result.target.ready == .exit || run.wallToReady == run.wallToExit
        marks.append(Mark(name: "spawn", time: 0, kind: .spawn))
        var cursor = (name: "spawn", time: 0.0)
        func phase(to name: String, at time: UInt64?, kind: BarKind) {
            guard let time else { return }
            let end = Double(time)
            phases.append(Bar(label: "\(cursor.name) → \(name)", start: cursor.time, end: max(end, cursor.time), kind: kind))
            cursor = (name, end)
        }
        phase(to: "process entry", at: run.processEntry, kind: .preMain)
        phase(to: "main", at: run.main, kind: .beforeMain)
        if let entry = run.processEntry { marks.append(Mark(name: "process entry", time: Double(entry), kind: .processEntry)) }
        if let main = run.main { marks.append(Mark(name: "main", time: Double(main), kind: .main)) }
        for milestone in run.milestones {
            marks.append(Mark(name: milestone.name, time: Double(milestone.nanoseconds), kind: .milestone))
        }
        if !probeIsExit {
            phase(to: "ready", at: run.wallToReady, kind: .toReady)
            if let ready = run.wallToReady { marks.append(Mark(name: "ready", time: Double(ready), kind: .ready)) }
        }
        phase(to: "exit", at: run.wallToExit, kind: probeIsExit ? .toReady : .afterReady)
        if let exit = run.wallToExit { marks.append(Mark(name: "exit", time: Double(exit), kind: .exit)) }
    }
}
