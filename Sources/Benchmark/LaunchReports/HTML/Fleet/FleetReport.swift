import Foundation
import LaunchEngine
import LaunchProfFiles
import LaunchSupport

/// A self-contained HTML page of many runs (`launchprof report DIR…`): per
/// target and mode, its median time to ready over runs on each machine
/// (a chart each) and a table of the runs with their budget and
/// regression verdicts; the offline counterpart of a Prometheus dashboard
/// over pushed results. Like `HTMLReport`: one file, inline SVG and CSS,
/// no scripts.
package struct FleetReport: Sendable {
    /// The runs shown.
    package var history: FleetHistory

    /// A report of `history`.
    package init(history: FleetHistory) {
        self.history = history
    }

    /// Every chart, one per target and mode.
    package var charts: [ReportChart] {
        history.series.enumerated().map { number, series in
            let chart = FleetChart(
                target: series.target, mode: series.mode, points: history.points(target: series.target, mode: series.mode),
                machines: history.machines, id: "f\(number + 1)")
            let file = "\(number + 1)-\(ReportChart.slug(series.target))-\(series.mode.rawValue)-history.svg"
            return ReportChart(id: chart.id, title: chart.title, fileName: file, canvas: chart.render())
        }
    }

    /// The whole page.
    package func html() -> String {
        let charts = charts
        var body = [header()]
        for (index, series) in history.series.enumerated() {
            let points = history.points(target: series.target, mode: series.mode)
            body.append(
                "<section id=\"series-\(index + 1)\">\n<h2>\(escape(series.target)) (\(escape(series.mode.rawValue)))</h2>\n"
                    + "<figure>\n\(charts[index].markup())\n</figure>\n" + table(points) + "\n</section>")
        }
        if !history.skipped.isEmpty {
            let items = history.skipped.map { "<li><code>\(escape($0.path))</code>: \(escape($0.reason))</li>" }
            body.append(
                "<section id=\"skipped\">\n<h2>Files left out</h2>\n<ul class=\"warnings\">"
                    + items.joined() + "</ul>\n</section>")
        }
        body.append(
            "<footer>Written by launchprof \(escape(launchprofVersion)) from \(history.entries.count) results files. "
                + "Self-contained: no scripts, fonts or links outside this file.</footer>")
        return HTMLPage.page(title: "launchprof fleet report", body: body)
    }

    /// Writes the page to `path`, whole or not at all.
    package func write(to path: String) throws(AtomicFileError) {
        try AtomicFile.write(html(), to: path)
    }

    /// Writes each chart as an SVG file to `directory` (created if need
    /// be); returns the paths written.
    package func writeCharts(to directory: String) throws(ReportOutputError) -> [String] {
        try ReportChart.write(charts, to: directory)
    }

    // MARK: - Parts

    private func header() -> String {
        let entries = history.entries
        let dates = entries.map(\.document.date)
        let commits = history.commits.count
        var facts = [
            "\(entries.count) results file\(entries.count == 1 ? "" : "s")",
            "\(history.machines.count) machine\(history.machines.count == 1 ? "" : "s") (\(history.machines.joined(separator: ", ")))",
        ]
        if commits > 0 { facts.append("\(commits) commit\(commits == 1 ? "" : "s")") }
        if let first = dates.first, let last = dates.last { facts.append(first == last ? first : "\(first) to \(last)") }
        let failedRuns = entries.filter { ($0.document.budgets ?? []).contains { !$0.passed } }.count
        let regressedRuns = entries.filter { !($0.document.comparison?.regressions.isEmpty ?? true) }.count
        var verdicts: [String] = []
        if failedRuns > 0 { verdicts.append("<b class=\"bad\">✗ budgets failed in \(failedRuns) run\(failedRuns == 1 ? "" : "s")</b>") }
        if regressedRuns > 0 {
            verdicts.append("<b class=\"bad\">▲ regressions in \(regressedRuns) run\(regressedRuns == 1 ? "" : "s")</b>")
        }
        let verdict = verdicts.isEmpty ? "No budget failed and no regression in these runs." : verdicts.joined(separator: "; ") + "."
        return "<header>\n<h1>launchprof fleet report</h1>\n<p class=\"facts\">" + escape(facts.joined(separator: " · "))
            + "</p>\n<p>" + verdict + " Each column is one commit (CI's, recorded by "
            + "<code>launchprof run</code>), oldest left, or one results file labelled with its date where CI named no commit; each machine (CI's runner name, else the host name) "
            + "has its own colour and marker. Hover a point for its run.</p>\n</header>"
    }

    private func table(_ points: [FleetHistory.Point]) -> String {
        let header = ["Date", "Commit", "Branch", "Machine", "Median", "95% CI of median", "Runs", "Budgets", "Against baseline", "File"]
        let rows = points.reversed().map { point -> String in
            let entry = point.entry
            let budgets = (entry.document.budgets ?? []).filter { $0.target == point.result.target.name && $0.mode == point.result.mode }
            let budgetCell =
                budgets.isEmpty
                ? "–"
                : point.failedBudgets.isEmpty
                    ? "✓ \(budgets.count) met"
                    : "<b class=\"bad\">✗ " + point.failedBudgets.map { escape($0.message) }.joined(separator: "; ") + "</b>"
            let comparison = entry.document.comparison
            let regressionCell =
                comparison == nil
                ? "–"
                : point.regressions.isEmpty
                    ? "no regression"
                    : "<b class=\"bad\">▲ "
                        + point.regressions.map { escape("\($0.metric) \(MetricChange.percent($0.change))") }
                        .joined(separator: ", ") + "</b>"
            let cells = [
                escape(entry.document.date), "<code>\(escape(entry.commit.map { String($0.prefix(12)) } ?? "–"))</code>",
                escape(entry.branch ?? "–"), escape(entry.machine),
                "<span class=\"num\"><b>\(escape(HumanUnits.duration(point.median)))</b></span>",
                "<span class=\"num\">\(escape("\(HumanUnits.duration(point.low)) … \(HumanUnits.duration(point.high))"))</span>",
                "\(point.result.runs.count)", budgetCell, regressionCell, "<code>\(escape(entry.source))</code>",
            ]
            return "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>"
        }
        return "<table>\n<thead><tr>" + header.map { "<th>\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            + rows.joined(separator: "\n") + "\n</tbody>\n</table>"
    }

    private func escape(_ text: String) -> String { MarkupText.escape(text) }
}
