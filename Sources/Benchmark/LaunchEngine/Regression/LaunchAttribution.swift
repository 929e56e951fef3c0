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
            let onCPU = LaunchAttribution.held(onCPUChange, within: change)
            return (onCPU, change - onCPU)
        }

        /// Named by its threads' CPU time (``cpuPValue``) while its wall
        /// time did not resolve the change: the wall change's interval holds
        /// zero (a wall change against the CPU time's that its interval
        /// resolves is real: a step that spins where it slept). Other programs' share of
        /// a busy machine's cores spreads wall times, not CPU times: 40 ms of
        /// CPU added to a step read −10.8 ms of wall time (p = 0.17) in 20
        /// runs a side while a test suite used both cores, and was named by
        /// its thread's CPU time. Its ``cpuSplit`` is then the wall time's
        /// noise ("+0 ns on CPU"), and the Why says the CPU time's change.
        package var isWallUnresolved: Bool {
            cpuPValue != nil && onCPUChange != nil && changeLow <= 0 && changeHigh >= 0
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

    /// `value` held between 0 and `change` (either sign): how much of a
    /// change was on CPU, when noise puts the CPU time's change beyond it.
    static func held(_ value: Double, within change: Double) -> Double {
        max(min(0, change), min(max(0, change), value))
    }

    package static func signed(_ nanoseconds: Double) -> String {
        (nanoseconds < 0 ? "-" : "+") + HumanUnits.duration(abs(nanoseconds))
    }

    static func share(_ fraction: Double) -> String { HumanUnits.percent(fraction) }

    package static func pText(_ p: Double) -> String { p < 0.0001 ? "< 0.0001" : "= " + HumanUnits.fixed(p, decimals: 4) }
}
