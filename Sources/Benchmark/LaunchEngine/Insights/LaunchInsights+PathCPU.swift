import LaunchAnalysis
import LaunchSupport

extension LaunchInsights {
    /// The launch path's named steps on and off CPU, and the step off CPU the longest.
    struct PathCPU {
        var onCPU: Double
        var offCPU: Double
        /// The step (by name) with the most time off CPU, and that time.
        var mostOff: (name: String, nanoseconds: Double)?
    }

    /// The launch path's named steps on CPU and off CPU, from the thread CPU
    /// time of the threads that ran them: from the trace's critical path when
    /// there is one, else from the runs' `path` intervals (median over runs).
    /// Nil when any step's CPU time is unknown (begun and ended on different
    /// threads, or traced without it), or the path has no steps.
    static func pathCPU(trace: Trace?, runs: [RunMeasurement]) -> PathCPU? {
        if let trace {
            guard let path = LaunchCriticalPath(trace: trace), !path.leaves.isEmpty else { return nil }
            var split = PathCPU(onCPU: 0, offCPU: 0)
            var byName: [String: Double] = [:]
            for leaf in path.leaves {
                guard let on = leaf.interval.onCPU, let off = leaf.interval.offCPU else { return nil }
                split.onCPU += Double(on)
                split.offCPU += Double(off)
                byName[leaf.interval.name, default: 0] += Double(off)
            }
            split.mostOff = byName.max { ($0.value, $1.key) < ($1.value, $0.key) }.map { ($0.key, $0.value) }
            return split
        }
        var onCPU: [Double] = [], offCPU: [Double] = []
        var offByName: [String: [Double]] = [:]
        for run in runs {
            guard let intervals = run.intervals else { continue }
            let path = intervals.filter { $0.thread == "path" }
            guard !path.isEmpty else { continue }
            var on = 0.0, all = 0.0
            for interval in path {
                guard let cpu = interval.onCPU else { return nil }
                on += Double(cpu)
                all += Double(interval.nanoseconds)
                offByName[interval.name, default: []].append(Double(interval.nanoseconds) - Double(min(cpu, interval.nanoseconds)))
            }
            onCPU.append(on)
            offCPU.append(max(0, all - on))
        }
        guard let on = median(onCPU), let off = median(offCPU) else { return nil }
        let mostOff = offByName.compactMapValues(median).max { ($0.value, $1.key) < ($1.value, $0.key) }
        return PathCPU(onCPU: on, offCPU: off, mostOff: mostOff.map { ($0.key, $0.value) })
    }

    /// The waiting finding from the path's own CPU time: the named steps
    /// were off CPU for a third of their time or more. Nil otherwise.
    static func pathWaiting(_ split: PathCPU, ready: Double, mode: LaunchMode, traced: Bool) -> LaunchInsight? {
        let steps = split.onCPU + split.offCPU
        guard steps > 0, split.offCPU >= steps / 3 else { return nil }
        let cause =
            mode == .cold
            ? "a cold launch waits for its reads from disk (see 'cold files'), and for blocking reads, locks, sleeps or other threads"
            : "blocking reads, fsync, locks, sleeps, or waiting for other threads or processes inside the steps"
        let most = split.mostOff.map { "'\(TerminalText.sanitized($0.name))'" }
        let finding =
            "the launch path's named steps took \(HumanUnits.duration(steps)) of \(HumanUnits.duration(ready)) to ready, "
            + "\(HumanUnits.duration(split.offCPU)) of it off CPU (\(HumanUnits.percent(split.offCPU / steps)); "
            + "the CPU time of the threads that ran them)"
            + (split.mostOff.map { "; the most in '\(TerminalText.sanitized($0.name))', \(HumanUnits.duration($0.nanoseconds))" } ?? "")
        // Without a trace the runs' intervals say which step waited, not
        // what for, nor whether it can move: that advice needs the trace.
        let action =
            traced
            ? "find what \(most ?? "the step") waits for (a read, a lock, a sleep, another thread) and move the wait after launch "
                + "complete (DeferredInitializer) or start it earlier beside the path (PrewarmRegistry)"
            : "what \(most ?? "the step") waits for, and whether it can leave the launch path, needs a trace of it: "
                + "'launchprof record', then 'launchprof explain --trace TRACE'"
        return LaunchInsight(area: .waiting, finding: finding, cause: cause, action: action, nanoseconds: split.offCPU)
    }
}
