import LaunchAnalysis
import LaunchEngine
import LaunchSupport

/// Renders an ``HTMLReport`` as one XHTML-compatible page.
struct HTMLPage {
    let report: HTMLReport
    let charts: [ReportChart]

    init(report: HTMLReport) {
        self.report = report
        charts = report.charts
    }

    private var document: ResultsDocument { report.document }

    func render() -> String {
        var body = [ReportHeader(report: report).render(), summarySection()]
        if let budgets = document.budgets, !budgets.isEmpty { body.append(budgetSection(budgets)) }
        if let comparison = report.comparison { body.append(changeSection(comparison)) }
        for (number, target) in report.targetNames.enumerated() { body.append(targetSection(target, number: number + 1)) }
        if let resources = charts.first(where: { $0.id == "resources" }) {
            body.append(section("resources", "Resources", [figure(resources)]))
        }
        body.append(footer())
        let names = report.targetNames
        let title = "launchprof report" + (names.isEmpty ? "" : ": " + names.prefix(4).joined(separator: ", "))
        return Self.page(title: title, body: body)
    }

    /// A whole page: `body`'s parts inside the report's head and style sheet.
    static func page(title: String, body: [String]) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>\(MarkupText.escape(title))</title>
        <style>
        \(styleSheet)
        </style>
        </head>
        <body>
        \(body.joined(separator: "\n"))
        </body>
        </html>

        """
    }

    // MARK: - Sections

    private func summarySection() -> String {
        guard !document.results.isEmpty else {
            return section(
                "summary", "Summary",
                [
                    "<p class=\"empty\">The results hold no targets: nothing was measured "
                        + "(was the run interrupted before its first measured run?).</p>"
                ])
        }
        let header = ["Target", "Mode", "Ready when", "Runs", "Median", "95% CI of median", "p90", "Min … max", "Relative"]
        var rows: [String] = []
        for (mode, reportRows) in ReportRow.rowsByMode(document) {
            for row in reportRows {
                let cells = summaryCells(row, mode: mode)
                let numeric = 3...7
                let markup = cells.enumerated().map { index, cell in
                    numeric.contains(index) ? "<td class=\"num\">\(cell)</td>" : "<td>\(cell)</td>"
                }
                rows.append("<tr>" + markup.joined() + "</tr>")
            }
        }
        let table =
            "<table>\n<thead><tr>" + header.map { "<th>\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            + rows.joined(separator: "\n") + "\n</tbody>\n</table>"
        let note =
            "<p class=\"note\">Times are from spawn to ready (the probe in “Ready when”), over the successful runs. "
            + "Hover any mark in the charts for its exact value.</p>"
        return section("summary", "Summary", [table, note])
    }

    /// The cells of a summary row, as markup.
    private func summaryCells(_ row: ReportRow, mode: LaunchMode) -> [String] {
        let number = (report.targetNames.firstIndex(of: row.result.target.name) ?? 0) + 1
        let failed = row.successfulRuns < row.result.runs.count
        let relative = row.isReference ? "reference" : row.comparison?.phrase(reference: document.reference ?? "") ?? "–"
        var cells = [
            "<a href=\"#target-\(number)\">\(escape(row.result.target.name))</a>", escape(mode.rawValue),
            escape(row.result.target.ready.description),
            failed ? "<span class=\"bad\">\(escape(row.runsText)) ▲</span>" : escape(row.runsText),
        ]
        guard let summary = row.summary else {
            return cells + ["<span class=\"bad\">no successful run</span>", "", "", "", escape(relative)]
        }
        let duration = { (value: Double) in HumanUnits.duration(value) }
        cells.append("<b>\(escape(duration(summary.median)))</b>")
        cells.append(escape("\(duration(summary.medianLow)) … \(duration(summary.medianHigh))"))
        cells.append(escape(duration(summary.p90)))
        cells.append(escape("\(duration(summary.min)) … \(duration(summary.max))"))
        cells.append(escape(relative))
        return cells
    }

    /// "-28.0% (wall_to_ready p50)", joined by commas.
    private func driftText(_ drift: [MetricChange]) -> String {
        drift.isEmpty
            ? "not measured"
            : drift.map {
                escape("\(MetricChange.percent($0.change)) (\($0.mode.rawValue) \($0.metric) \($0.statistic))")
            }.joined(separator: ", ")
    }

    private func changeSection(_ comparison: BaselineComparison) -> String {
        let regressions = comparison.regressions.count
        let improvements = comparison.improvements.count
        var verdict =
            regressions == 0
            ? "No regression" : "<b class=\"bad\">▲ \(regressions) regression\(regressions == 1 ? "" : "s")</b>"
        if improvements > 0 { verdict += ", ▼ \(improvements) improvement\(improvements == 1 ? "" : "s")" }
        var parts = [
            "<p>\(verdict) against <code>\(escape(comparison.baseline))</code>, measured \(escape(comparison.baselineDate)) "
                + "by launchprof \(escape(comparison.baselineToolVersion)). A change is a regression when it is worse by more than "
                + "its threshold and a Mann–Whitney U test of the runs finds it significant. "
                + (comparison.reference.map { reference in
                    "Times are compared relative to <code>\(escape(reference))</code>, measured in both runs, which takes "
                        + "the machine's drift out; its own change, as measured, was "
                        + driftText(comparison.drift ?? []) + " and never gates. "
                } ?? "")
                + (report.baseline == nil
                    ? ""
                    : "The baseline's runs are drawn beside the current ones in each target's distributions "
                        + "(grey, hatched, hollow dots).")
                + "</p>"
        ]
        if !comparison.warnings.isEmpty {
            parts.append("<ul class=\"warnings\">" + comparison.warnings.map { "<li>\(escape($0.message))</li>" }.joined() + "</ul>")
        }
        if let chart = charts.first(where: { $0.id == "changes" }) {
            parts.append(figure(chart))
        } else {
            parts.append("<p class=\"empty\">No target and mode was measured in both the baseline and these results.</p>")
        }
        parts += attributionTables(comparison)
        return section("changes", "Against the baseline", parts)
    }

    /// Why each target's time to ready changed, for those that regressed:
    /// the contributors, largest first, intervals before phases.
    private func attributionTables(_ comparison: BaselineComparison) -> [String] {
        var parts: [String] = []
        for (number, attribution) in comparison.regressedAttributions.enumerated() {
            parts.append(
                "<h3>Why \(escape(attribution.target)) (\(escape(attribution.mode.rawValue))) changed by "
                    + "\(escape(LaunchAttribution.signed(attribution.totalChange)))</h3>")
            if attribution.phases.count > 1 {
                let chart = PhaseWaterfallChart(attribution: attribution, id: "why-\(number + 1)")
                parts.append("<figure>\n\(chart.render().markup(title: chart.title))\n</figure>")
            }
            let contributors = attribution.contributors
            if !attribution.librarySentences.isEmpty {
                parts.append("<ul>" + attribution.librarySentences.map { "<li>\(escape($0))</li>" }.joined() + "</ul>")
            }
            guard !contributors.isEmpty else {
                parts.append("<p>No part of the launch changed beyond noise: the change is unexplained.</p>")
                continue
            }
            let rows = contributors.prefix(8).map { part -> String in
                var cells = part.cells.map(escape)
                cells[3] = "<b>\(cells[3])</b>"  // the change
                return "<tr>" + cells.enumerated().map { $0 == 0 ? "<td>\($1)</td>" : "<td class=\"num\">\($1)</td>" }.joined() + "</tr>"
            }
            parts.append(
                "<table>\n<thead><tr>" + LaunchAttribution.tableHeader.map { "<th>\($0)</th>" }.joined()
                    + "</tr></thead>\n<tbody>\n" + rows.joined(separator: "\n") + "\n</tbody>\n</table>")
            if let sentence = attribution.unexplainedSentence { parts.append("<p>\(escape(sentence)).</p>") }
        }
        return parts
    }

    private func budgetSection(_ budgets: [BudgetEvaluation]) -> String {
        let failed = budgets.filter { !$0.passed }.count
        let verdict =
            failed == 0
            ? "<p>All \(budgets.count) budgets met ✓.</p>"
            : "<p><b class=\"bad\">✗ \(failed) of \(budgets.count) budgets failed.</b></p>"
        let header = ["Target", "Mode", "Metric", "Limit", "Observed", "Verdict", "Where"]
        let rows = budgets.map { budget -> String in
            let metric = Metric(key: budget.metric)
            let observed = budget.observed.map { HumanUnits.format($0, unit: metric?.unit ?? .count) } ?? "–"
            let cells = [
                escape(budget.target), escape(budget.mode.rawValue), escape(metric?.displayName ?? budget.metric),
                escape(DistributionChart.limitText(budget)),
                "<span class=\"num\">\(escape(observed))</span>",
                budget.passed ? "✓ met: \(escape(budget.message))" : "<b class=\"bad\">✗ FAILED</b>: \(escape(budget.message))",
                escape(budget.source ?? ""),
            ]
            return "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>"
        }
        let table =
            "<table>\n<thead><tr>" + header.map { "<th>\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            + rows.joined(separator: "\n") + "\n</tbody>\n</table>"
        return section("budgets", "Budgets", [verdict, table])
    }

    private func targetSection(_ target: String, number: Int) -> String {
        let results = report.results(of: target, in: document)
        var parts: [String] = []
        if let command = results.first?.target.arguments {
            parts.append("<p class=\"command\"><code>\(escape(ReportHeader.shellWords(command.map(\.string))))</code></p>")
        }
        for result in results {
            if let failure = result.failureSummary {
                parts.append("<p class=\"warning\"><b>\(escape(result.label))</b>: \(escape(failure)).</p>")
            }
        }
        let warnings = results.flatMap { result in result.warnings.map { (result.label, $0.message) } }
        if !warnings.isEmpty {
            // Folded: a cold run's residency warning alone can fill a screen.
            let items = warnings.map { "<li><b>\(escape($0.0))</b>: \(escape($0.1))</li>" }.joined()
            parts.append(
                "<details class=\"warnings\"><summary>⚠ \(warnings.count) warning\(warnings.count == 1 ? "" : "s"): "
                    + "\(escape(warnings[0].1.prefix(90) + (warnings[0].1.count > 90 ? "…" : "")))</summary><ul>\(items)</ul></details>")
        }
        parts += results.compactMap(launchFacts)
        parts += charts.filter { $0.id.hasPrefix("t\(number)-") }.map(figure)
        if let record = document.profiles?.first(where: { $0.target == target }) {
            parts.append(profileFiles(record, drawn: report.profiles[target] != nil))
        }
        if let difference = report.comparison?.profileDifferences?.first(where: { $0.target == target }) {
            parts.append(differentialProfile(difference))
        }
        parts += insights(results, trace: report.traces[target])
        return section("target-\(number)", target, parts)
    }

    /// What `launchprof explain` says of each result: finding, cause, action.
    private func insights(_ results: [BenchmarkResult], trace: Trace?) -> [String] {
        results.compactMap { result in
            let insights = LaunchInsights.insights(for: result, trace: trace)
            guard !insights.isEmpty else { return nil }
            let items = insights.map { insight in
                "<li><b>\(escape(insight.area.rawValue))</b>: \(escape(insight.finding)).<br/>"
                    + "<i>Why</i>: \(escape(insight.cause)). <i>Do</i>: \(escape(insight.action)).</li>"
            }
            return "<h3>Insights: \(escape(result.label))</h3>\n<ul class=\"insights\">" + items.joined() + "</ul>"
        }
    }

    /// The differential profile against the baseline: the functions that
    /// changed most and the differential flame graph, drawn here when its
    /// file can be read.
    private func differentialProfile(_ difference: ProfileDifference) -> String {
        var text = "<h3>Against the baseline's profile</h3>\n<ul>"
        for function in difference.functions.prefix(5) {
            text +=
                "<li><code>\(escape(function.name))</code>: self \(HumanUnits.fixed(function.selfBefore, decimals: 1)) → "
                + "\(HumanUnits.fixed(function.selfAfter, decimals: 1)), total \(HumanUnits.fixed(function.totalBefore, decimals: 1)) → "
                + "\(HumanUnits.fixed(function.totalAfter, decimals: 1)) samples per launch</li>"
        }
        text += "</ul>"
        if let path = difference.flameGraph, let svg = try? String(contentsOfFile: path, encoding: .utf8),
            let start = svg.range(of: "<svg")
        {
            text += "\n<figure class=\"flame\">\(svg[start.lowerBound...])</figure>"
        }
        return text
    }

    /// What a result's launches read from disk (cold runs: every file, the
    /// median bytes per launch) and the process tree they started.
    private func launchFacts(_ result: BenchmarkResult) -> String? {
        let facts = LaunchFacts(result)
        var parts: [String] = []
        if let tree = facts.treeSentence() {
            parts.append("<p class=\"facts\"><b>\(escape(result.label))</b>: \(escape(tree)).</p>")
        }
        if let total = facts.bytesRead {
            let rows = facts.filesRead.map { file in
                "<tr><td><code>\(escape(file.path))</code></td><td class=\"number\">\(escape(HumanUnits.bytes(Double(file.bytes))))</td></tr>"
            }.joined()
            parts.append(
                "<details class=\"facts\"><summary><b>\(escape(result.label))</b>: a cold launch read "
                    + "\(escape(HumanUnits.bytes(Double(total)))) from disk (median per launch), from "
                    + "\(facts.filesRead.count) file\(facts.filesRead.count == 1 ? "" : "s")</summary>"
                    + "<table><thead><tr><th>File</th><th>Read per launch (median)</th></tr></thead><tbody>\(rows)</tbody></table>"
                    + (facts.expectedResident.isEmpty
                        ? ""
                        : "<p>Left cached, as on any running system (launchprof maps them): "
                            + escape(facts.expectedResident.map(LaunchFacts.fileName).joined(separator: ", ")) + ".</p>")
                    + "</details>")
        }
        return parts.isEmpty ? nil : parts.joined()
    }

    /// Where the profile's files are (as text: the page links nothing
    /// outside itself) and, when its flame graph is not drawn here (a
    /// report made later from the JSON results), what was hottest.
    private func profileFiles(_ record: ProfileRecord, drawn: Bool) -> String {
        var text = ""
        if !drawn {
            let launches = record.launches == 1 ? "1 launch" : "\(record.launches) launches"
            let line =
                "Profiled: \(record.samples) samples from \(launches) at \(record.rateHz) Hz"
                + ProfileRecord.HotFrame.clause(record.hottest.prefix(3))
            text += escape(line) + ". "
        }
        text +=
            "Profile files: flame graph <code>\(escape(record.flameGraph))</code> (with search), "
            + "speedscope <code>\(escape(record.speedscope))</code>, folded stacks <code>\(escape(record.folded))</code>."
        return "<p class=\"profile\">\(text)</p>"
    }

    private func footer() -> String {
        let source = report.source.map { " from \(escape($0))" } ?? ""
        return "<footer>Written by launchprof \(escape(launchprofVersion))\(source). "
            + "Self-contained: no scripts, fonts or links outside this file.</footer>"
    }

    // MARK: - Markup

    private func section(_ id: String, _ title: String, _ parts: [String]) -> String {
        "<section id=\"\(id)\">\n<h2>\(escape(title))</h2>\n" + parts.joined(separator: "\n") + "\n</section>"
    }

    private func figure(_ chart: ReportChart) -> String {
        "<figure>\n\(chart.markup())\n</figure>"
    }

    private func escape(_ text: String) -> String { MarkupText.escape(text) }
}
