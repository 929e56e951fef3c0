/// A change point in one series of a history: where the level moved,
/// which run measured it first, and by how much.
package struct HistoryChange: Sendable, Equatable, Codable {
    /// The series.
    package var series: HistorySeriesKey
    /// The first point after the change (0 the oldest).
    package var index: Int
    /// The first commit measured after the change, if the results say.
    package var commit: String?
    /// The last commit measured before it.
    package var previousCommit: String?
    /// When the first run after the change was measured.
    package var date: String
    /// The results file of that run.
    package var source: String
    /// The median of the series' segment before the change (from the
    /// previous change point), in the metric's unit.
    package var medianBefore: Double
    /// The median of the segment after (to the next change point).
    package var medianAfter: Double
    /// (after − before) / before: positive is slower (larger), for every
    /// metric launchprof measures.
    package var change: Double
    /// The two-sided Student's t-test between the segments.
    package var pValue: Double
    /// Its t statistic; nil when neither segment varies (t is infinite).
    package var tStatistic: Double?
    /// Its degrees of freedom.
    package var degreesOfFreedom: Int
    /// The points either side.
    package var pointsBefore: Int
    /// The points after, to the next change point or the end.
    package var pointsAfter: Int
    /// The series' noise the change was held to (σ̂ of successive differences).
    package var noise: Double

    /// A larger value after the change: slower, bigger, more.
    package var isRegression: Bool { change > 0 }

    /// The change point `point` of `points`, the series `series`.
    package init(_ point: EDivisiveMeans.ChangePoint, of series: HistorySeriesKey, points: [HistoryPoint], next: Int?, previous: Int?) {
        self.series = series
        index = point.index
        let first = points[point.index]
        commit = first.commit
        previousCommit = point.index > 0 ? points[point.index - 1].commit : nil
        date = first.date
        source = first.source
        medianBefore = point.medianBefore
        medianAfter = point.medianAfter
        change = point.relativeChange
        pValue = point.test.pValue
        tStatistic = point.test.t.isFinite ? point.test.t : nil
        degreesOfFreedom = point.test.degreesOfFreedom
        pointsBefore = point.index - (previous ?? 0)
        pointsAfter = (next ?? points.count) - point.index
        noise = point.noise
    }
}
