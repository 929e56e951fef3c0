import Foundation
import LaunchEngine
import LaunchSupport

/// `launchprof history` for people: each series with change points, each
/// change point with its commit, date, medians, change and significance,
/// then the verdict.
package enum HistoryReportLines {
    /// The report as lines (no trailing newline).
    package static func lines(_ analysis: HistoryAnalysis) -> [String] {
        var lines: [String] = []
        let changed = analysis.series.filter { !$0.changes.isEmpty }
        lines.append(
            "\(analysis.files) results file\(analysis.files == 1 ? "" : "s"), \(analysis.series.count) series "
                + "(target × mode × metric × machine), \(analysis.changes.count) change point"
                + "\(analysis.changes.count == 1 ? "" : "s") in \(changed.count) (ordered by \(analysis.parameters.order))")
        for series in changed {
            let unit = Metric(key: series.key.metric)?.unit ?? .count
            lines.append("")
            lines.append(
                "\(series.key) — \(series.points) runs, noise σ \(HumanUnits.format(series.noise, unit: unit)), "
                    + "now \(HumanUnits.format(series.currentMedian, unit: unit))")
            for change in series.changes { lines.append("  " + line(change, unit: unit)) }
        }
        lines.append("")
        if analysis.failing.isEmpty {
            lines.append(
                "No series' newest change point is a regression beyond \(HumanUnits.percent(analysis.parameters.threshold)).")
        } else {
            lines.append(
                "REGRESSED: \(analysis.failing.count) series' newest change point is a regression beyond "
                    + "\(HumanUnits.percent(analysis.parameters.threshold)):")
            for change in analysis.failing {
                lines.append("  \(change.series): \(signed(change.change)) at \(change.commit.map(short) ?? change.date)")
            }
        }
        return lines
    }

    /// "▲ +8.1%  at abc1234 (2026-11-20T10:00:00Z, after def5678), run 41: median 2.10 ms → 2.27 ms, p 1.2e-08 (t 7.3, 38 df; 40 | 12 runs)"
    static func line(_ change: HistoryChange, unit: Metric.Unit) -> String {
        let mark = change.isRegression ? "▲" : "▼"
        let at = change.commit.map { "at \(short($0)) (\(change.date)" } ?? "at (\(change.date)"
        let after = change.previousCommit.map { ", after \(short($0))" } ?? ""
        let t = change.tStatistic.map { "t \(HumanUnits.fixed($0, decimals: 1)), " } ?? ""
        return "\(mark) \(signed(change.change))  \(at)\(after)), run \(change.index + 1): median "
            + "\(HumanUnits.format(change.medianBefore, unit: unit)) → \(HumanUnits.format(change.medianAfter, unit: unit)), "
            + "p \(pValue(change.pValue)) (\(t)\(change.degreesOfFreedom) df; \(change.pointsBefore) | \(change.pointsAfter) runs)"
    }

    private static func signed(_ change: Double) -> String { (change >= 0 ? "+" : "−") + HumanUnits.percent(abs(change)) }

    private static func short(_ commit: String) -> String { String(commit.prefix(10)) }

    private static func pValue(_ p: Double) -> String {
        p < 0.001 ? String(format: "%.1e", p) : HumanUnits.fixed(p, decimals: 3)
    }
}
