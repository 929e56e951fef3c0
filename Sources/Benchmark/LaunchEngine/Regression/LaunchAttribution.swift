import Foundation
import LaunchSupport

/// Why one target's time to ready changed against a baseline: the change
/// broken down into the launch's phases (spawn → process entry, process
/// entry → main, main → each milestone in order, the last milestone →
/// ready) and into its signpost intervals by name and thread role (from
/// `--trace-runs`), each part with its own change of median, confidence
/// interval and p-value. Parts whose change is significant and not trivial
/// are contributors, largest first, each with the share of the total change
/// it explains; what the intervals do not explain is said to be unexplained.
package struct LaunchAttribution: Sendable, Equatable, Codable {
    /// One part of the launch and its change.
    package struct Part: Sendable, Equatable, Codable {
        /// A phase of the launch, or a signpost interval.
        package enum Kind: String, Sendable, Equatable, Codable {
            /// A stretch between two points of the launch (spawn, process entry, main, milestones, ready).
            case phase
            /// A signpost interval, by name and thread role.
            case interval
        }

        /// Phase or interval.
        package var kind: Kind
        /// What a person reads: "main → index ready", "interval 'build index' (main thread)".
        package var name: String
        /// The median in the baseline's runs, in nanoseconds.
        package var baseline: Double
        /// The median in the current runs, in nanoseconds.
        package var current: Double
        /// The change of the median, current − baseline, in nanoseconds.
        package var change: Double
        /// The lower end of the change's 95% confidence interval (bootstrap).
        package var changeLow: Double
        /// The upper end of the change's 95% confidence interval.
        package var changeHigh: Double
        /// The Mann–Whitney U test's two-sided p-value.
        package var pValue: Double
        /// change / the total change of time to ready.
        package var share: Double
        /// Significant (with every other part: Benjamini–Hochberg), its
        /// interval excludes zero, and at least 1% of the baseline's time to
        /// ready; or, for an interval, the same of its threads' CPU time.
        package var isContributor: Bool
        /// An interval's role on the launch's critical path (``IntervalTime/thread``); nil for a phase.
        package var thread: String? = nil
        /// A phase that ends at process entry or main, before every interval.
        package var isPreMain: Bool? = nil
        /// An interval's change of time on CPU, in nanoseconds (median against
        /// median): the thread CPU time of the threads that ran it, so on the
        /// pool as on the main thread. Nil for a phase, and when any run has
        /// it unknown (``IntervalTime/onCPU``).
        package var onCPUChange: Double? = nil
        /// An interval's Mann–Whitney p-value of its threads' CPU time, when
        /// that changed by at least 1% of time to ready with an interval
        /// excluding zero: it makes the interval a contributor on a machine
        /// whose load hides the change in its wall times.
        package var cpuPValue: Double? = nil

        /// ``change`` split into work on CPU and time off CPU: on CPU is
        /// ``onCPUChange`` held between 0 and the change (noise can put it
        /// beyond), off CPU the rest, so the two add up to the change.
        package var cpuSplit: (onCPU: Double, offCPU: Double)? {
            guard let onCPUChange else { return nil }
            let onCPU = max(min(0, change), min(max(0, change), onCPUChange))
            return (onCPU, change - onCPU)
        }

        /// Whether its change is part of the explained change: a leaf of the
        /// launch path, or a phase before main (intervals come after it).
        package var isCounted: Bool {
            kind == .phase ? isPreMain == true : LaunchAttribution.countedRoles.contains(thread ?? "")
        }

        /// Its row in a report's table, plain text in `LaunchAttribution/tableHeader`'s order.
        package var cells: [String] {
            [
                name, HumanUnits.duration(baseline), HumanUnits.duration(current), LaunchAttribution.signed(change),
                "\(LaunchAttribution.signed(changeLow)) … \(LaunchAttribution.signed(changeHigh))",
                HumanUnits.percent(share), pValue < 0.0001 ? "< 0.0001" : HumanUnits.fixed(pValue, decimals: 4),
            ]
        }
    }

    /// The target.
    package var target: String
    /// Its page-cache mode.
    package var mode: LaunchMode
    /// Median time to ready in the baseline, in nanoseconds.
    package var baselineReady: Double
    /// Median time to ready now, in nanoseconds.
    package var currentReady: Double
    /// currentReady − baselineReady: what the parts' changes are shares of.
    package var totalChange: Double
    /// The phases, in launch order.
    package var phases: [Part]
    /// The intervals of traced runs (`--trace-runs` on both sides), largest change first.
    package var intervals: [Part]
    /// The part of the total change no contributing interval explains, in
    /// nanoseconds (nil without traced intervals on both sides).
    package var unexplained: Double?
    /// The change of the time the launch spent off CPU, in nanoseconds: how
    /// much of the change was waiting (I/O, locks, sleeps, other threads)
    /// rather than work. The main thread's own (time to ready minus its CPU
    /// time, `LP1 maincpu`) when every run of a LaunchProf program reported
    /// it, else time to ready minus the whole process tree's CPU; by median.
    package var offCPUChange: Double? = nil
    /// Whether ``offCPUChange`` and ``cpuChange`` are the main thread's own.
    package var offCPUIsMainThread: Bool? = nil
    /// The change of the CPU time the launch used, in nanoseconds (median
    /// against median): the main thread's when the launch path ran on it
    /// (``offCPUIsMainThread``), else the whole process's.
    package var cpuChange: Double? = nil
    /// Cold runs: what each file of the launch (the executable, its shared
    /// libraries, `--evict` paths) read from disk, before and after; files
    /// on one side only are libraries added or dropped. Empty for warm runs.
    package var files: [FileChange]? = nil
    /// Shared libraries the launch loads on one side only, from each side's
    /// resolved dependencies (``BenchmarkResult/libraries``), warm or cold;
    /// nil when either side's are unknown.
    package var libraries: [LibraryChange]? = nil
    /// The change of the time before main (spawn → main, or → process
    /// entry), in nanoseconds: where a library added or dropped shows.
    package var preMainChange: Double? = nil
    /// The libraries whose dynamic-loader time changed most (map, relocate,
    /// init), when both sides were audited (`run --loader`); nil otherwise.
    package var loader: [LoaderChange]? = nil

    /// One file's reads in cold runs, before and after.
    package struct FileChange: Sendable, Equatable, Codable {
        /// The file.
        package var path: String
        /// Median bytes read from disk per cold launch in the baseline; nil: not in its file set.
        package var bytesBefore: Double?
        /// Median bytes read per cold launch now; nil: not in the file set now.
        package var bytesAfter: Double?

        /// A file the launch has now and did not have (a new shared library).
        package var isNew: Bool { bytesBefore == nil && bytesAfter != nil }
        /// A file the launch no longer has.
        package var isGone: Bool { bytesBefore != nil && bytesAfter == nil }
    }

    /// The contributors, largest change first: intervals (the more precise
    /// answer) before phases, each with its share.
    package var contributors: [Part] {
        let largestFirst: (Part, Part) -> Bool = { abs($0.change) > abs($1.change) }
        return intervals.filter(\.isContributor).sorted(by: largestFirst) + phases.filter(\.isContributor).sorted(by: largestFirst)
    }

    /// The roles whose intervals' changes add up to the explained change:
    /// the leaves of the launch path, and older results' main-thread intervals.
    package static let countedRoles: Set<String> = ["path", "main"]

    /// The columns of a report's table of parts (`Part/cells`).
    package static let tableHeader = ["Part", "Baseline", "Now", "Change", "95% CI", "Share", "p"]

    package static func signed(_ nanoseconds: Double) -> String {
        (nanoseconds < 0 ? "-" : "+") + HumanUnits.duration(abs(nanoseconds))
    }

    static func share(_ fraction: Double) -> String { HumanUnits.percent(fraction) }

    package static func pText(_ p: Double) -> String { p < 0.0001 ? "< 0.0001" : "= " + HumanUnits.fixed(p, decimals: 4) }
}

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
