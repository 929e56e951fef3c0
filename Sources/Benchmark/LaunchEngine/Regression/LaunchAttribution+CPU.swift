import LaunchSupport

/// On CPU or off CPU: how much of a change was work and how much waiting.
extension LaunchAttribution {
    /// The median time on CPU of the intervals `key` over `runs` (a traced
    /// run without them spent none); nil when any run has it unknown.
    static func onCPU(_ runs: [RunMeasurement], _ key: String) -> Double? {
        onCPUValues(runs, key).flatMap { SummaryStatistic.p50.value(of: $0) }
    }

    /// Each run's thread CPU time in the interval `key` (0 in a run without
    /// it); nil when a run has it without its CPU time (an older trace).
    static func onCPUValues(_ runs: [RunMeasurement], _ key: String) -> [Double]? {
        var values: [Double] = []
        for run in runs {
            guard let intervals = run.intervals else { continue }
            guard let interval = intervals.first(where: { $0.key == key }) else {
                values.append(0)
                continue
            }
            guard let onCPU = interval.onCPU else { return nil }
            values.append(Double(onCPU))
        }
        return values
    }

    /// The counted intervals' changes split into on CPU and off CPU (each
    /// from the thread CPU time of the threads that ran it), what of them is
    /// unknown, the phases before main, and the unexplained rest: five
    /// figures that add up to the total change. Nil when no counted interval
    /// has its CPU time known (traces without it).
    package var pathCPUSplit: (onCPU: Double, offCPU: Double, unknown: Double, preMain: Double, unexplained: Double)? {
        guard let unexplained else { return nil }
        let counted = countedContributors
        let intervals = counted.filter { $0.kind == .interval }
        let splits = intervals.compactMap(\.cpuSplit)
        guard !splits.isEmpty else { return nil }
        return (
            splits.reduce(0) { $0 + $1.onCPU }, splits.reduce(0) { $0 + $1.offCPU },
            intervals.filter { $0.cpuSplit == nil }.reduce(0) { $0 + $1.change },
            counted.filter { $0.kind == .phase }.reduce(0) { $0 + $1.change }, unexplained
        )
    }

    /// How much of the change was work on CPU and how much was not. With the
    /// thread CPU time of the launch path's intervals (``pathCPUSplit``): the
    /// named steps' on CPU and off CPU, beside what is before main and what
    /// no step explains, adding up to the change. Without it, from the change
    /// of the main thread's or the process's CPU time (``cpuChange``).
    var cpuLines: [String] {
        guard totalChange != 0 else { return [] }
        let prefix = "\(target) (\(mode.rawValue)): "
        if let split = pathCPUSplit {
            var parts = [
                "\(Self.signed(split.onCPU)) was work on CPU and \(Self.signed(split.offCPU)) off CPU (waiting, or runnable "
                    + "on a busy machine) in the named steps of the launch path (the CPU time of the threads that ran them)"
            ]
            if split.unknown != 0 {
                parts.append("\(Self.signed(split.unknown)) in steps whose CPU time is unknown (begun and ended on different threads)")
            }
            if split.preMain != 0 { parts.append("\(Self.signed(split.preMain)) before main") }
            if split.unexplained != 0 { parts.append("\(Self.signed(split.unexplained)) in no named part") }
            return [prefix + "of \(Self.signed(totalChange)), " + parts.joined(separator: "; ")]
        }
        guard let cpuChange else { return [] }
        let whose = offCPUIsMainThread == true ? "the main thread's CPU time" : "the process's CPU time"
        let onCPU = Self.held(cpuChange, within: totalChange), offCPU = totalChange - onCPU
        return [
            prefix + "of \(Self.signed(totalChange)), \(Self.signed(onCPU)) was work on CPU "
                + "(\(whose) \(Self.signed(cpuChange))) and \(Self.signed(offCPU)) off CPU "
                + "(waiting for I/O, locks or sleeps, or runnable on a busy machine)"
        ]
    }
}
