import Foundation
import LaunchSupport

// Attribution made from the runs of the two sides: each part tested, the
// tests held together, the files read cold and the phases both sides have.
extension LaunchAttribution {
    /// The attribution of `current`'s change against `baseline` (one target
    /// and mode), from the successful runs of each; nil when either side has
    /// no successful run.
    package static func attribute(
        baseline: BenchmarkResult, current: BenchmarkResult, significance: Double = RunDefaults.significance
    ) -> LaunchAttribution? {
        let before = baseline.runs.filter(\.exit.isSuccess), after = current.runs.filter(\.exit.isSuccess)
        // Not `.map(Double.init)`: for a UInt64 that is Double(bitPattern:).
        let readyBefore = before.compactMap(\.wallToReady).map { Double($0) }
        let readyAfter = after.compactMap(\.wallToReady).map { Double($0) }
        guard let baselineReady = SummaryStatistic.p50.value(of: readyBefore),
            let currentReady = SummaryStatistic.p50.value(of: readyAfter)
        else { return nil }
        let floor = 0.01 * baselineReady
        let total = currentReady - baselineReady
        func part(_ kind: Part.Kind, _ name: String, _ a: [Double], _ b: [Double]) -> Part? {
            guard let difference = BootstrapDifference(b, minus: a), let test = MannWhitneyU(b, a),
                let baselineValue = SummaryStatistic.p50.value(of: a), let currentValue = SummaryStatistic.p50.value(of: b)
            else { return nil }
            let excludesZero = difference.low > 0 || difference.high < 0
            return Part(
                kind: kind, name: name, baseline: baselineValue, current: currentValue, change: difference.difference,
                changeLow: difference.low, changeHigh: difference.high, pValue: test.pValue,
                share: total != 0 && (difference.difference / total).isFinite ? difference.difference / total : 0,
                isContributor: test.pValue < significance && excludesZero && abs(difference.difference) >= floor)
        }
        var phases = Self.phases(before: before, after: after).compactMap { phase in
            var part = part(.phase, phase.name, phase.before, phase.after)
            part?.isPreMain = phase.isPreMain
            return part
        }
        var intervals: [Part] = []
        var unexplained: Double?
        let tracedBefore = before.filter { $0.intervals != nil }, tracedAfter = after.filter { $0.intervals != nil }
        if !tracedBefore.isEmpty, !tracedAfter.isEmpty {
            var keys: [String] = []
            var seen = Set<String>()
            for run in tracedBefore + tracedAfter {
                for interval in run.intervals ?? [] where seen.insert(interval.key).inserted { keys.append(interval.key) }
            }
            intervals = keys.compactMap { key in
                let metric = Metric.interval(key)
                var interval = part(
                    .interval, metric.displayName, tracedBefore.compactMap(metric.value), tracedAfter.compactMap(metric.value))
                interval?.thread = Metric.intervalParts(key).thread
                if let old = onCPUValues(tracedBefore, key), let new = onCPUValues(tracedAfter, key),
                    let oldMedian = SummaryStatistic.p50.value(of: old), let newMedian = SummaryStatistic.p50.value(of: new)
                {
                    interval?.onCPUChange = newMedian - oldMedian
                    // Its threads' own CPU time is measured whatever else
                    // runs; its wall time is not. On a busy machine the
                    // other programs' share of the cores spreads the wall
                    // times until no test can tell them apart, while work
                    // added to the interval still shows in its CPU time: an
                    // interval whose CPU time changed by the same rule is a
                    // contributor, its change still the wall time's.
                    if let difference = BootstrapDifference(new, minus: old), let test = MannWhitneyU(new, old),
                        difference.low > 0 || difference.high < 0, abs(difference.difference) >= floor
                    {
                        interval?.cpuPValue = test.pValue
                    }
                }
                return interval
            }.sorted { abs($0.change) > abs($1.change) }
            Self.controlFalseDiscoveries(phases: &phases, intervals: &intervals, level: significance)
            // The leaves of the launch's critical path (older results: the
            // main thread's intervals) and the phases before main are
            // disjoint in time: their changes add up, and the rest is
            // unexplained. Enclosing steps hold their children's time, and
            // work off the path is not on the way to ready: neither counts.
            let explained = (intervals + phases).filter { $0.isContributor && $0.isCounted }.reduce(0) { $0 + $1.change }
            unexplained = total - explained
        }
        if intervals.isEmpty { Self.controlFalseDiscoveries(phases: &phases, intervals: &intervals, level: significance) }
        var attribution = LaunchAttribution(
            target: current.target.name, mode: current.mode, baselineReady: baselineReady, currentReady: currentReady,
            totalChange: total, phases: phases, intervals: intervals, unexplained: unexplained)
        // The main thread's CPU time is the launch path's only when the path
        // ran there: an async main's path runs on the cooperative pool, and
        // then the whole process's CPU time is what holds its work.
        let pathOffMain = (before + after).contains { run in
            (run.intervals ?? []).contains { $0.thread == RunIntervals.path && $0.onMainThread == false }
        }
        let mainThread = !pathOffMain && !(before + after).isEmpty && (before + after).allSatisfy { $0.mainThreadCPU != nil }
        func cpu(_ run: RunMeasurement) -> Double { Double(mainThread ? run.mainThreadCPU ?? 0 : run.userCPU + run.systemCPU) }
        func offCPU(_ run: RunMeasurement) -> Double? { run.wallToReady.map { Double($0) - cpu(run) } }
        if let old = SummaryStatistic.p50.value(of: before.compactMap(offCPU)),
            let new = SummaryStatistic.p50.value(of: after.compactMap(offCPU))
        {
            attribution.offCPUChange = new - old
            attribution.offCPUIsMainThread = mainThread
        }
        if let old = SummaryStatistic.p50.value(of: before.map(cpu)), let new = SummaryStatistic.p50.value(of: after.map(cpu)) {
            attribution.cpuChange = new - old
        }
        attribution.libraries = LibraryChange.changes(before: baseline.libraries, after: current.libraries)
        attribution.loader = LoaderChange.changes(before: baseline.loader, after: current.loader)
        let preMain = phases.filter { $0.isPreMain == true }
        if !preMain.isEmpty { attribution.preMainChange = preMain.reduce(0) { $0 + $1.change } }
        if current.mode == .cold {
            attribution.files = fileChanges(
                before: before, program: baseline.target.arguments.first?.string, after: after,
                program: current.target.arguments.first?.string)
        }
        return attribution
    }

    /// The parts are many tests at once (every phase and interval, and an
    /// interval's CPU time beside its wall time): at a level of 1% each,
    /// twenty independent parts that did not change name one about one time
    /// in five (1 − 0.99²⁰), and "nothing changed" named 'start workers' at
    /// p = 0.007 in a quiet full run. The p-values of all of them
    /// are held together to the level by the Benjamini–Hochberg procedure
    /// (JRSS B 57, 1995, 289–300): a part is a contributor when its p-value
    /// is at most k/m of the level, k the largest rank that passes, m the
    /// tests; with nothing changed, the chance of naming any part is at most
    /// the level. A part also needs its interval to exclude zero and a change
    /// of at least 1% of time to ready (decided when it was measured).
    static func controlFalseDiscoveries(phases: inout [Part], intervals: inout [Part], level: Double) {
        // (p-value, which list, index, by CPU time)
        var tests: [(p: Double, isPhase: Bool, index: Int, cpu: Bool)] = []
        for (index, part) in phases.enumerated() { tests.append((part.pValue, true, index, false)) }
        for (index, part) in intervals.enumerated() {
            tests.append((part.pValue, false, index, false))
            if let cpu = part.cpuPValue { tests.append((cpu, false, index, true)) }
        }
        let m = Double(tests.count)
        let sorted = tests.sorted { $0.p < $1.p }
        var passing = 0
        for (rank, test) in sorted.enumerated() where test.p <= Double(rank + 1) / m * level { passing = rank + 1 }
        var discovered = Set<String>()  // "p3", "i2", "c2"
        for test in sorted.prefix(passing) { discovered.insert((test.isPhase ? "p" : test.cpu ? "c" : "i") + String(test.index)) }
        for index in phases.indices { phases[index].isContributor = phases[index].isContributor && discovered.contains("p\(index)") }
        for index in intervals.indices {
            let byWall = intervals[index].isContributor && discovered.contains("i\(index)")
            intervals[index].isContributor = byWall || discovered.contains("c\(index)")
        }
    }

    /// Cold runs' reads per file, by median over the runs that reported
    /// residency. The program itself is one entry whatever its path on each
    /// side ("the executable"), so a rebuilt binary is not a new file.
    static func fileChanges(
        before: [RunMeasurement], program oldProgram: String?, after: [RunMeasurement], program newProgram: String?
    )
        -> [FileChange]?
    {
        func reads(_ runs: [RunMeasurement], program: String?) -> [String: Double] {
            let programName = program.map { ($0 as NSString).lastPathComponent }
            var perFile: [String: [Double]] = [:]
            for run in runs {
                guard let residency = run.residency else { continue }
                let page = Double(residency.pageSize ?? 4096)
                for file in residency.files {
                    let key = (file.path as NSString).lastPathComponent == programName ? "(the executable)" : file.path
                    perFile[key, default: []].append(Double(file.pagesRead ?? 0) * page)
                }
            }
            return perFile.compactMapValues { SummaryStatistic.p50.value(of: $0) }
        }
        let old = reads(before, program: oldProgram), new = reads(after, program: newProgram)
        guard !old.isEmpty || !new.isEmpty else { return nil }
        let paths = Set(old.keys).union(new.keys)
        return paths.map { FileChange(path: $0, bytesBefore: old[$0], bytesAfter: new[$0]) }
            .sorted {
                (($0.isNew || $0.isGone) ? 1 : 0, abs(($0.bytesAfter ?? 0) - ($0.bytesBefore ?? 0)), $1.path)
                    > (($1.isNew || $1.isGone) ? 1 : 0, abs(($1.bytesAfter ?? 0) - ($1.bytesBefore ?? 0)), $0.path)
            }
    }

    /// A phase: its name and its duration in each run of the two sides
    /// (runs that did not record its ends are left out).
    struct Phase {
        var name: String
        var before: [Double]
        var after: [Double]
        /// It ends at process entry or main: before every interval.
        var isPreMain = false
    }

    /// The phases both sides can have, in launch order: spawn → process
    /// entry → main → each milestone (in the order runs recorded them) →
    /// ready. Each run's milestones are read once: a program may name
    /// thousands of them.
    static func phases(before: [RunMeasurement], after: [RunMeasurement]) -> [Phase] {
        let runs = before + after
        var milestones: [String] = []
        var seen = Set<String>()
        // Each run's first time of each name (as Metric.value(in:) reads it).
        var firstTimes: [[String: UInt64]] = []
        for run in runs {
            var times: [String: UInt64] = [:]
            for milestone in run.milestones where times[milestone.name] == nil { times[milestone.name] = milestone.nanoseconds }
            firstTimes.append(times)
            for milestone in run.milestones.sorted(by: { $0.nanoseconds < $1.nanoseconds }) where seen.insert(milestone.name).inserted {
                milestones.append(milestone.name)
            }
        }
        typealias Point = (name: String, time: (Int) -> UInt64?)
        var points: [Point] = [("spawn", { _ in 0 })]
        if runs.contains(where: { $0.processEntry != nil }) { points.append(("process entry", { runs[$0].processEntry })) }
        if runs.contains(where: { $0.main != nil }) { points.append(("main", { runs[$0].main })) }
        for name in milestones { points.append((name, { firstTimes[$0][name] })) }
        points.append(("ready", { runs[$0].wallToReady }))
        let preMainEnd = points.lastIndex { $0.name == "main" || $0.name == "process entry" } ?? 0
        return zip(points.indices, points.indices.dropFirst()).map { fromIndex, toIndex in
            let from = points[fromIndex], to = points[toIndex]
            func duration(_ position: Int) -> Double? {
                guard let start = from.time(position), let end = to.time(position), end >= start else { return nil }
                return Double(end - start)
            }
            return Phase(
                name: "\(from.name) → \(to.name)", before: before.indices.compactMap(duration),
                after: (before.count..<runs.count).compactMap(duration), isPreMain: toIndex <= preMainEnd)
        }
    }
}
