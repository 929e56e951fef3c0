import Foundation

/// What a history needs of a results file, and only that: its date,
/// machine, labels, and each result's target, mode and metric summaries.
///
/// Read as `ResultsDocument.load` reads (a regular file, its size bounded,
/// the schema version checked first), with every figure read checked; the
/// runs are parsed but not built or kept. Over 2,000 files of 20 runs,
/// `ResultsDocument.load` spent 68% of its time checking the runs' figures
/// by reflection (`perf record`), which a history never reads.
package struct ResultsSummaries: Sendable, Decodable {
    /// When the results were measured (ISO 8601, UTC).
    package var date: String
    /// The machine they were measured on.
    package var machine: Machine
    /// CI's commit, branch and runner, and `--label`s; nil when none.
    package var labels: [String: String]?
    /// One per target and mode.
    package var results: [Result]

    /// The machine, by name.
    package struct Machine: Sendable, Decodable {
        /// Its host name.
        package var hostname: String
    }

    /// One target in one mode.
    package struct Result: Sendable, Decodable {
        /// The target, by name.
        package var target: Target
        /// The page-cache mode.
        package var mode: LaunchMode
        /// Per metric key, over the successful runs.
        package var summaries: [String: MetricSummary]
    }

    /// A target, by name.
    package struct Target: Sendable, Decodable {
        /// Its name.
        package var name: String
    }

    /// Reads the results file at `path`.
    package static func load(from path: String) throws(ResultsFileError) -> ResultsSummaries {
        let data = try ResultsDocument.readBytes(path)
        try ResultsDocument.checkVersion(data, path: path)
        let summaries: ResultsSummaries
        do {
            summaries = try JSONDecoder().decode(ResultsSummaries.self, from: data)
        } catch {
            throw .malformed(path: path, reason: ResultsDocument.describe(error))
        }
        for (index, result) in summaries.results.enumerated() {
            for key in result.summaries.keys.sorted() {
                guard let summary = result.summaries[key] else { continue }
                if let (field, value) = firstBadFigure(summary) {
                    throw .outOfRange(path: path, problem: "results[\(index)].summaries.\(key).\(field) is \(value)")
                }
            }
        }
        return summaries
    }

    /// The first figure of `summary` out of range, by field name, or nil.
    private static func firstBadFigure(_ summary: MetricSummary) -> (String, Double)? {
        let figures: [(String, Double)] = [
            ("count", Double(summary.count)), ("median", summary.median), ("mean", summary.mean),
            ("standardDeviation", summary.standardDeviation), ("min", summary.min), ("max", summary.max),
            ("p90", summary.p90), ("p95", summary.p95), ("p99", summary.p99), ("mad", summary.mad),
            ("medianLow", summary.medianLow), ("medianHigh", summary.medianHigh),
        ]
        return figures.first { !ResultsDocument.isFigure($0.1) }
    }
}
