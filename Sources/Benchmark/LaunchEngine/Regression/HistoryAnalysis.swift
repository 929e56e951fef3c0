import LaunchSupport

/// Change points in every series of a results history, and the verdict
/// a nightly job exits with (`launchprof history`, `--export-json`).
package struct HistoryAnalysis: Sendable, Codable {
    /// The schema version of the JSON.
    package static let currentVersion = 1

    /// One series: its size, noise and change points.
    package struct Series: Sendable, Codable {
        /// What it is.
        package var key: HistorySeriesKey
        /// Its points (runs).
        package var points: Int
        /// When its first and last runs were measured.
        package var firstDate: String
        /// When its last run was measured.
        package var lastDate: String
        /// The newest run's commit.
        package var lastCommit: String?
        /// The median of its newest segment (since its last change point).
        package var currentMedian: Double
        /// σ̂ of successive differences, in the metric's unit.
        package var noise: Double
        /// Its change points, oldest first.
        package var changes: [HistoryChange]
    }

    /// What was asked of the detector.
    package struct Parameters: Sendable, Codable, Equatable {
        /// Points per split window.
        package var windowLength: Int
        /// The largest p-value of a change point.
        package var maxPValue: Double
        /// The smallest relative change kept.
        package var minimumChange: Double
        /// How many noise σ̂ a change must be.
        package var noiseMultiple: Double
        /// A regression beyond this (relative) at a series' newest change point fails.
        package var threshold: Double
        /// How points are ordered: "date" or "git log".
        package var order: String
    }

    /// The schema version.
    package var version = HistoryAnalysis.currentVersion
    /// The method and where it is from.
    package var method =
        "E-divisive means (Matteson & James 2014) with a two-sided Student's t-test and Hunter's split and merge "
        + "(Fleming et al., ICPE 2023; Apache Otava), changes under the series' noise left out"
    /// The detector's parameters.
    package var parameters: Parameters
    /// Results files read.
    package var files: Int
    /// Files left out, and why.
    package var skipped: [ResultsHistory.Skipped]
    /// Every series, sorted by target, mode, metric and machine.
    package var series: [Series]
    /// The series whose newest change point is a regression beyond the threshold.
    package var failing: [HistoryChange]

    /// Finds the change points of every series of `history` with `detector`.
    package init(history: ResultsHistory, detector: EDivisiveMeans, threshold: Double, byGitLog: Bool) {
        parameters = Parameters(
            windowLength: detector.windowLength, maxPValue: detector.maxPValue, minimumChange: detector.minimumChange,
            noiseMultiple: detector.noiseMultiple, threshold: threshold, order: byGitLog ? "git log" : "date")
        files = history.files
        skipped = history.skipped
        series = history.series.map { key, points in
            let values = points.map(\.median)
            let found = detector.changePoints(in: values)
            let changes = found.enumerated().map { position, point in
                HistoryChange(
                    point, of: key, points: points,
                    next: position + 1 < found.count ? found[position + 1].index : nil,
                    previous: position > 0 ? found[position - 1].index : nil)
            }
            let current = Statistics.median(Array(values[(found.last?.index ?? 0)...])) ?? 0
            return Series(
                key: key, points: points.count, firstDate: points.first?.date ?? "", lastDate: points.last?.date ?? "",
                lastCommit: points.last?.commit, currentMedian: current, noise: EDivisiveMeans.noise(of: values),
                changes: changes)
        }
        failing = series.compactMap { series in
            guard let newest = series.changes.last, newest.change > threshold else { return nil }
            return newest
        }
    }

    /// 1 when a series' newest change point is a regression beyond the threshold, else 0.
    package var exitStatus: LaunchExitStatus { failing.isEmpty ? .success : .gateFailed }

    /// Every change point, oldest first by series.
    package var changes: [HistoryChange] { series.flatMap(\.changes) }

    /// Writes the analysis as JSON, whole or not at all.
    package func writeJSON(to path: String) throws { try JSONDocument.write(self, to: path) }
}
