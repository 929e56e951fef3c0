import LaunchAnalysis
import LaunchSupport

extension LaunchInsights {
    /// The launch path's named steps on CPU and off CPU, from the thread CPU
    /// time of the threads that ran them: from the trace's critical path when
    /// there is one, else from the runs' `path` intervals (median over runs).
    /// Nil when any step's CPU time is unknown (begun and ended on different
    /// threads, or traced without it), or the path has no steps.
    static func pathCPU(trace: Trace?, runs: [RunMeasurement]) -> (onCPU: Double, offCPU: Double)? {
        if let trace {
            guard let path = LaunchCriticalPath(trace: trace), !path.leaves.isEmpty else { return nil }
            var onCPU = 0.0, offCPU = 0.0
            for leaf in path.leaves {
                guard let on = leaf.interval.onCPU, let off = leaf.interval.offCPU else { return nil }
                onCPU += Double(on)
                offCPU += Double(off)
            }
            return (onCPU, offCPU)
        }
        var onCPU: [Double] = [], offCPU: [Double] = []
        for run in runs {
            guard let intervals = run.intervals else { continue }
            let path = intervals.filter { $0.thread == "path" }
            guard !path.isEmpty else { continue }
            var on = 0.0, all = 0.0
            for interval in path {
                guard let cpu = interval.onCPU else { return nil }
                on += Double(cpu)
                all += Double(interval.nanoseconds)
            }
            onCPU.append(on)
            offCPU.append(max(0, all - on))
        }
        guard let on = median(onCPU), let off = median(offCPU) else { return nil }
        return (on, off)
    }

    /// The waiting finding from the path's own CPU time: the named steps
    /// were off CPU for a third of their time or more. Nil otherwise.
    static func pathWaiting(_ split: (onCPU: Double, offCPU: Double), ready: Double, mode: LaunchMode, traced: Bool) -> LaunchInsight? {
        let steps = split.onCPU + split.offCPU
        guard steps > 0, split.offCPU >= steps / 3 else { return nil }
        let cause =
            mode == .cold
            ? "a cold launch waits for its reads from disk (see 'cold files'), and for blocking reads, locks, sleeps or other threads"
            : "blocking reads, fsync, locks, sleeps, or waiting for other threads or processes inside the steps"
        return LaunchInsight(
            area: .waiting,
            finding: "the launch path's named steps took \(HumanUnits.duration(steps)) of \(HumanUnits.duration(ready)) to ready, "
                + "\(HumanUnits.duration(split.offCPU)) of it off CPU (\(HumanUnits.percent(split.offCPU / steps)); "
                + "the CPU time of the threads that ran them)",
            cause: cause,
            action: (traced ? "the critical path says which step waited (a long step with little CPU): " : "")
                + "move the wait after launch complete (DeferredInitializer) or start it earlier beside the path (PrewarmRegistry)",
            nanoseconds: split.offCPU)
    }
}
