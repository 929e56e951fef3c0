import LaunchSupport

/// Something a person should know about a benchmark result before trusting
/// its numbers. `description` is the sentence reports print.
package enum LaunchWarning: Sendable, CustomStringConvertible {
    /// Runs far from the median (1-based run numbers with their values, ns).
    case outliers(metric: Metric, runs: [(number: Int, value: Double)], median: Double, limit: Double, total: Int)
    /// The first run was much slower than the median of the rest.
    case slowFirstRun(first: Double, restMedian: Double, mode: LaunchMode)
    /// Runs that did not launch successfully, grouped by how they ended.
    case failedRuns(groups: [(status: String, runs: [Int])], total: Int)
    /// Fewer successful runs than the statistics need.
    case fewRuns(successful: Int, minimum: Int)
    /// Cold runs that began with much of the evicted file set still cached.
    case residencyStayedHigh(runs: [Int], worstFraction: Double, files: [ResidentFile], total: Int, threshold: Double)

    /// A file that stayed resident in the page cache before cold runs.
    package struct ResidentFile: Sendable, Equatable {
        /// The file.
        package var path: String
        /// The share of its pages resident before the cold run.
        package var fraction: Double
        /// The most of its pages seen resident before a cold run: the
        /// warning names the files that kept the most cached first.
        package var residentPages: Int
        /// Why it stayed resident, when known.
        package var note: String?

        /// A file `path` with `residentPages` pages, `fraction` of it,
        /// resident.
        package init(path: String, fraction: Double, residentPages: Int, note: String?) {
            self.path = path
            self.fraction = fraction
            self.residentPages = residentPages
            self.note = note
        }
    }

    package var description: String {
        switch self {
        case let .outliers(metric, runs, median, limit, total):
            let list = runs.map { "run \($0.number) (\(HumanUnits.format($0.value, unit: metric.unit)))" }
            return "\(runs.count) of \(total) runs are outliers in \(metric.displayName) "
                + "(further than \(HumanUnits.format(limit, unit: metric.unit)) from the median "
                + "\(HumanUnits.format(median, unit: metric.unit))): \(Self.abbreviated(list)). "
                + "Something else was using the machine; consider re-running on a quiet system."
        case let .slowFirstRun(first, rest, mode):
            let advice =
                mode == .warm
                ? "caches were probably not filled before it: use --warmup, or --mode cold to measure cold launches"
                : "the later runs were probably not fully cold: check the residency report and --evict"
            return "the first run was much slower than the rest (\(HumanUnits.duration(first)) vs a median of "
                + "\(HumanUnits.duration(rest))): \(advice)."
        case let .failedRuns(groups, total):
            let failed = groups.reduce(0) { $0 + $1.runs.count }
            let parts = groups.map { group in
                let noun = group.runs.count == 1 ? "run" : "runs"
                return "\(group.status) (\(noun) \(Self.abbreviated(group.runs.map(String.init))))"
            }
            return "\(failed) of \(total) runs failed and are left out of the statistics: "
                + parts.joined(separator: "; ") + "."
        case let .fewRuns(successful, minimum):
            if successful == 0 { return "no run succeeded: there is nothing to summarize." }
            let noun = successful == 1 ? "run" : "runs"
            return "only \(successful) successful \(noun): the statistics are weak; use --runs \(max(10, minimum)) or more."
        case let .residencyStayedHigh(runs, worst, files, total, threshold):
            let list = files.map { file in
                "\(file.path) \(HumanUnits.percent(file.fraction)) resident" + (file.note.map { " (\($0))" } ?? "")
            }
            return
                "\(runs.count) of \(total) cold runs started with more than \(HumanUnits.percent(threshold)) of the evicted files still cached "
                + "(up to \(HumanUnits.percent(worst))), so they were not fully cold: \(Self.abbreviated(list))."
        }
    }

    /// What the warning is about, as results documents keep it.
    package var kind: ResultWarning.Kind {
        switch self {
        case .outliers: .outliers
        case .slowFirstRun: .slowFirstRun
        case .failedRuns: .failedRuns
        case .fewRuns: .fewRuns
        case .residencyStayedHigh: .residencyStayedHigh
        }
    }

    /// The warning as results documents keep it.
    package var kept: ResultWarning { ResultWarning(kind, description) }

    /// The first few items and how many more, so a warning stays one readable line.
    private static func abbreviated(_ items: [String], limit: Int = 5) -> String {
        guard items.count > limit else { return items.joined(separator: ", ") }
        return items.prefix(limit).joined(separator: ", ") + " and \(items.count - limit) more"
    }

}
