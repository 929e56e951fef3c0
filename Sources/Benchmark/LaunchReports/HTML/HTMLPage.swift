import LaunchAnalysis
import LaunchEngine
import LaunchSupport

/// Renders an `HTMLReport` as one XHTML-compatible page.
struct HTMLPage {
    let report: HTMLReport
    let charts: [ReportChart]

    init(report: HTMLReport) {
        self.report = report
        charts = report.charts
    }

    var document: ResultsDocument { report.document }

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
        if let loader = loaderTable(results) { parts.append(loader) }
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
    /// changed most and the differential flame graph, drawn here when the
    /// report was given it (else its file is named).
    private func differentialProfile(_ difference: ProfileDifference) -> String {
        var text = "<h3>Against the baseline's profile</h3>\n<ul>"
        for function in difference.functions.prefix(5) {
            text +=
                "<li><code>\(escape(function.name))</code>: self \(HumanUnits.fixed(function.selfBefore, decimals: 1)) → "
                + "\(HumanUnits.fixed(function.selfAfter, decimals: 1)), total \(HumanUnits.fixed(function.totalBefore, decimals: 1)) → "
                + "\(HumanUnits.fixed(function.totalAfter, decimals: 1)) samples per launch</li>"
        }
        text += "</ul>"
        if let svg = report.differentialFlameGraphs[difference.target], let start = svg.range(of: "<svg") {
            text += "\n<figure class=\"flame\">\(svg[start.lowerBound...])</figure>"
        } else if let path = difference.flameGraph {
            text += "\n<p class=\"files\">Differential flame graph: <code>\(escape(path))</code></p>"
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

    func section(_ id: String, _ title: String, _ parts: [String]) -> String {
        "<section id=\"\(id)\">\n<h2>\(escape(title))</h2>\n" + parts.joined(separator: "\n") + "\n</section>"
    }

    func figure(_ chart: ReportChart) -> String {
        "<figure>\n\(chart.markup())\n</figure>"
    }

    func escape(_ text: String) -> String { MarkupText.escape(text) }
}
