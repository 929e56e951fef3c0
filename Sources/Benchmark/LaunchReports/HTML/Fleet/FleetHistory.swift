import Foundation
import LaunchEngine
import LaunchSupport

/// Results of many runs (CI artifacts from many commits and runners) read
/// for a fleet report: each target's time to ready over commits and
/// machines, with its budget and regression verdicts.
package struct FleetHistory: Sendable {
    /// One results file.
    package struct Entry: Sendable {
        /// Where it was read from.
        package var source: String
        /// What it holds.
        package var document: ResultsDocument

        /// The run's commit (`ResultsDocument.labels`), if CI said.
        package var commit: String? { document.labels?["commit"] }
        /// The run's branch, if CI said.
        package var branch: String? { document.labels?["branch"] }
        /// The machine: CI's runner name, else the host name.
        package var machine: String { document.labels?["runner"] ?? document.machine.hostname }
    }

    /// A file in a directory that is not a results file, left out and said so.
    package struct Skipped: Sendable, Equatable {
        /// The file.
        package var path: String
        /// Why it was left out.
        package var reason: String
    }

    /// One target's time to ready in one run.
    package struct Point: Sendable {
        /// The run it is from.
        package var entry: Entry
        /// Its result.
        package var result: BenchmarkResult
        /// The median time to ready, and its 95% confidence interval, in nanoseconds.
        package var median: Double
        /// The interval's lower end.
        package var low: Double
        /// The interval's upper end.
        package var high: Double
        /// The target's budgets that failed in that run.
        package var failedBudgets: [BudgetEvaluation]
        /// The target's metrics that regressed against that run's baseline.
        package var regressions: [MetricChange]
    }

    /// Every results file read, oldest first (by the date each was measured).
    package var entries: [Entry]
    /// Files of the directories given that are not results files.
    package var skipped: [Skipped]

    /// Reads `paths`: results files, and directories searched (recursively)
    /// for `.json` files. A file named on its own must be a results file; in
    /// a directory, JSON that is not one (a config, another tool's output) is
    /// skipped and listed in ``skipped``.
    package static func load(_ paths: [String]) throws(FleetHistoryError) -> FleetHistory {
        var entries: [Entry] = []
        var skipped: [Skipped] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path) }
            guard isDirectory.boolValue else {
                do {
                    entries.append(Entry(source: path, document: try ResultsDocument.load(from: path)))
                } catch {
                    throw .unreadable(error)
                }
                continue
            }
            let files = try jsonFiles(under: path)
            let found = entries.count
            for file in files {
                do {
                    entries.append(Entry(source: file, document: try ResultsDocument.load(from: file)))
                } catch {
                    skipped.append(Skipped(path: file, reason: error.description))
                }
            }
            if entries.count == found { throw .noResults(path, skipped: skipped.count) }
        }
        entries.sort { ($0.document.date, $0.commit ?? "", $0.source) < ($1.document.date, $1.commit ?? "", $1.source) }
        return FleetHistory(entries: entries, skipped: skipped)
    }

    /// The `.json` files under `directory`, sorted by path.
    private static func jsonFiles(under directory: String) throws(FleetHistoryError) -> [String] {
        guard let files = JSONFileWalk.files(under: directory) else { throw .missing(directory) }
        return files
    }

    /// Target and mode pairs, in the order they first appear.
    package var series: [(target: String, mode: LaunchMode)] {
        var seen: [(target: String, mode: LaunchMode)] = []
        for entry in entries {
            for result in entry.document.results where !seen.contains(where: { $0 == (result.target.name, result.mode) }) {
                seen.append((result.target.name, result.mode))
            }
        }
        return seen
    }

    /// The machines, in the order they first appear.
    package var machines: [String] {
        var seen: [String] = []
        for entry in entries where !seen.contains(entry.machine) { seen.append(entry.machine) }
        return seen
    }

    /// The distinct commits, in the order they first appear.
    package var commits: [String] {
        var seen: [String] = []
        for commit in entries.compactMap(\.commit) where !seen.contains(commit) { seen.append(commit) }
        return seen
    }

    /// One target's time to ready in each run that measured it, oldest first.
    /// A run whose launches all failed has no median and no point.
    package func points(target: String, mode: LaunchMode) -> [Point] {
        entries.compactMap { entry in
            guard let result = entry.document.results.first(where: { $0.target.name == target && $0.mode == mode }),
                let summary = result.summaries[Metric.wallToReady.key]
            else { return nil }
            let budgets = (entry.document.budgets ?? []).filter { $0.target == target && $0.mode == mode && !$0.passed }
            let regressions = (entry.document.comparison?.changes ?? [])
                .filter { $0.target == target && $0.mode == mode && $0.verdict == .regressed }
            return Point(
                entry: entry, result: result, median: summary.median, low: summary.medianLow, high: summary.medianHigh,
                failedBudgets: budgets, regressions: regressions)
        }
    }
}

/// Why a fleet report cannot be made from the paths given.
package enum FleetHistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A path that does not exist.
    case missing(String)
    /// A file named on its own that is not a readable results file.
    case unreadable(ResultsFileError)
    /// A directory with no results file in it.
    case noResults(String, skipped: Int)

    package var description: String {
        switch self {
        case .missing(let path): "'\(path)' does not exist"
        case .unreadable(let error): error.description
        case let .noResults(path, skipped):
            "'\(path)' holds no launchprof results files"
                + (skipped > 0 ? " (\(skipped) other JSON file\(skipped == 1 ? "" : "s") skipped)" : " (no .json files)")
        }
    }
}
