/// What one series of a history is: a target's metric in one mode on one
/// machine (CI's runner name, else the host name).
package struct HistorySeriesKey: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The target's name.
    package var target: String
    /// The page-cache mode.
    package var mode: LaunchMode
    /// The metric's key (`Metric.key`: `wall_to_ready`, `max_rss`, …).
    package var metric: String
    /// The machine: the results' `runner` label, else its host name.
    package var machine: String

    /// A key with these values.
    package init(target: String, mode: LaunchMode, metric: String, machine: String) {
        self.target = target
        self.mode = mode
        self.metric = metric
        self.machine = machine
    }

    /// "target (mode) metric on machine", as the report prints it.
    package var description: String { "\(target) (\(mode.rawValue)) \(metric) on \(machine)" }

    /// By target, mode, metric, then machine: the order a history lists its series.
    package static func < (lhs: HistorySeriesKey, rhs: HistorySeriesKey) -> Bool {
        (lhs.target, lhs.mode.rawValue, lhs.metric, lhs.machine) < (rhs.target, rhs.mode.rawValue, rhs.metric, rhs.machine)
    }
}
