import LaunchAnalysis
import LaunchEngine
import LaunchSupport

/// The verdicts of a report: the comparison with a baseline (its drift,
/// its changes, the attribution of a regression) and the budgets.
extension HTMLPage {
    func driftText(_ drift: [MetricChange]) -> String {
        drift.isEmpty
            ? "not measured"
            : drift.map {
                escape("\(MetricChange.percent($0.change)) (\($0.mode.rawValue) \($0.metric) \($0.statistic))")
            }.joined(separator: ", ")
    }

    func changeSection(_ comparison: BaselineComparison) -> String {
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
    func attributionTables(_ comparison: BaselineComparison) -> [String] {
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

    func budgetSection(_ budgets: [BudgetEvaluation]) -> String {
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
}
