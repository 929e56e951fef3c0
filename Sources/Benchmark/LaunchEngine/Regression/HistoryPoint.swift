/// One run's value of one series: a metric's median in one results file.
package struct HistoryPoint: Sendable, Equatable, Codable {
    /// The median over that run's launches, in the metric's unit.
    package var median: Double
    /// The commit measured (the results' `commit` label), if CI said.
    package var commit: String?
    /// When it was measured (ISO 8601, UTC, as the results say).
    package var date: String
    /// The results file it was read from.
    package var source: String

    /// A point with these values.
    package init(median: Double, commit: String?, date: String, source: String) {
        self.median = median
        self.commit = commit
        self.date = date
        self.source = source
    }
}
