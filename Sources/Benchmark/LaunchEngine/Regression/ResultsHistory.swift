import Foundation
import LaunchSupport

/// Results of many runs (CI artifacts of many commits and runners) read as
/// series for change-point detection: one per target × mode × metric ×
/// machine, each run's median a point, oldest first.
///
/// Only the medians are kept: each file is read, checked
/// (`ResultsSummaries`: its size bounded, its version first, every
/// summary's figure in range) and dropped, so memory grows with the number
/// of points, not with the files' runs.
package struct ResultsHistory: Sendable {
    /// A file left out, and why.
    package struct Skipped: Sendable, Equatable, Codable {
        /// The file.
        package var path: String
        /// Why it was left out.
        package var reason: String
    }

    /// The most results files one history reads.
    package static let largestFileCount = 100_000

    /// Each series and its points, oldest first; series sorted by key.
    package var series: [(key: HistorySeriesKey, points: [HistoryPoint])]
    /// How many results files were read.
    package var files: Int
    /// Files of the directories given that are not results, and results
    /// left out of a git order (no commit, or one not in the log).
    package var skipped: [Skipped]

    /// A history of these series (oldest point first in each), read from
    /// `files` inputs, with what was left out.
    package init(series: [(key: HistorySeriesKey, points: [HistoryPoint])], files: Int, skipped: [Skipped]) {
        self.series = series
        self.files = files
        self.skipped = skipped
    }

    /// Reads `paths`: results files, and directories searched (recursively)
    /// for `.json` files. A file named on its own must be a results file; in
    /// a directory, JSON that is not one is skipped and listed. With
    /// `commitOrder` (full hashes, newest first, as `git log` prints them)
    /// runs are ordered by their commit's place in it, else by their date.
    package static func load(_ paths: [String], commitOrder: [String]? = nil) throws(HistoryError) -> ResultsHistory {
        var skipped: [Skipped] = []
        var files: [(path: String, directory: String?)] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path) }
            if isDirectory.boolValue {
                let found = try jsonFiles(under: path, limit: largestFileCount - files.count)
                guard !found.isEmpty else { throw .noResults(path, skipped: 0) }
                files += found.map { ($0, path) }
            } else {
                files.append((path, nil))
            }
            guard files.count <= largestFileCount else { throw .tooManyFiles(found: files.count, limit: largestFileCount) }
        }
        let order = commitOrder.map(CommitOrder.init)
        var runs: [Run] = []
        var readFrom: Set<String> = []  // the directories that held results
        var read = 0
        for file in files {
            let document: ResultsSummaries
            do {
                document = try ResultsSummaries.load(from: file.path)
            } catch {
                guard file.directory != nil else { throw .unreadable(error) }
                skipped.append(Skipped(path: file.path, reason: error.description))
                continue
            }
            if let directory = file.directory { readFrom.insert(directory) }
            read += 1
            let commit = document.labels?["commit"]
            var position: Int?
            if let order {
                guard let commit else {
                    skipped.append(Skipped(path: file.path, reason: "it has no commit label to place it in the git log"))
                    continue
                }
                guard let found = order.position(of: commit) else {
                    skipped.append(Skipped(path: file.path, reason: "its commit '\(commit)' is not in the repository's git log"))
                    continue
                }
                position = found
            }
            runs.append(Run(document: document, source: file.path, position: position))
        }
        for directory in Set(files.compactMap(\.directory)).sorted() where !readFrom.contains(directory) {
            throw .noResults(directory, skipped: files.filter { $0.directory == directory }.count)
        }
        runs.sort { ($0.position ?? 0, $0.date, $0.source) < ($1.position ?? 0, $1.date, $1.source) }
        var grouped: [HistorySeriesKey: [HistoryPoint]] = [:]
        for run in runs {
            for (key, point) in run.points { grouped[key, default: []].append(point) }
        }
        let series = grouped.sorted { $0.key < $1.key }.map { (key: $0.key, points: $0.value) }
        return ResultsHistory(series: series, files: read, skipped: skipped)
    }

    /// The medians of one results file, by series.
    private struct Run {
        var date: String
        var source: String
        var position: Int?
        var points: [(HistorySeriesKey, HistoryPoint)]

        init(document: ResultsSummaries, source: String, position: Int?) {
            date = document.date
            self.source = source
            self.position = position
            let machine = document.labels?["runner"] ?? document.machine.hostname
            let commit = document.labels?["commit"]
            points = document.results.flatMap { result in
                result.summaries.map { metric, summary in
                    (
                        HistorySeriesKey(target: result.target.name, mode: result.mode, metric: metric, machine: machine),
                        HistoryPoint(median: summary.median, commit: commit, date: document.date, source: source)
                    )
                }
            }
        }
    }

    /// The `.json` files under `directory`, sorted by path; at most `limit`
    /// (one more is an error, said by the caller).
    private static func jsonFiles(under directory: String, limit: Int) throws(HistoryError) -> [String] {
        guard let files = JSONFileWalk.files(under: directory, limit: limit) else { throw .missing(directory) }
        if files.count > limit { throw .tooManyFiles(found: files.count, limit: largestFileCount) }
        return files
    }
}
