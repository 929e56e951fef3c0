import Foundation
import LaunchEngine
import LaunchSupport

/// A GitHub-flavoured Markdown report (`--export-markdown`), like hyperfine's
/// but with the median's confidence interval, resources, milestones, the
/// comparison with the reference target, warnings and the machine.
package struct MarkdownExporter: ResultsExporter {
    /// An exporter.
    package init() {}

    package func export(_ document: ResultsDocument) throws -> String {
        let rows = ReportRow.rowsByMode(document).flatMap(\.rows)
        var sections: [String] = []
        if let headline = GateVerdict.headline(document) {
            let mark = GateVerdict(document).exitStatus == .success ? "✅" : "❌"
            sections.append("\(mark) **launchprof: \(escape(headline))**")
        }
        if let budgets = document.budgets, !budgets.isEmpty { sections.append(budgetTable(budgets)) }
        if let comparison = document.comparison { sections.append(comparisonTable(comparison)) }
        sections.append(launchTable(rows, reference: document.reference))
        if rows.contains(where: { !$0.details.isEmpty }) { sections.append(milestoneTable(rows)) }
        let warnings = document.results.flatMap { result in result.warnings.map { "- **\(escape(result.label))**: \(escape($0.message))" } }
        if !warnings.isEmpty { sections.append((["### Warnings", ""] + warnings).joined(separator: "\n")) }
        sections.append(machineLine(document))
        return sections.joined(separator: "\n\n") + "\n"
    }

    private func launchTable(_ rows: [ReportRow], reference: String?) -> String {
        let hasReference = rows.contains(where: \.isReference)
        var header = [
            "Target", "Mode", "Time to ready (median)", "± MAD", "95% CI of median", "Min", "Max",
            "User CPU", "System CPU", "Max RSS", "Major faults", "Runs",
        ]
        if hasReference { header.append("Relative") }
        let alignment = [":---", ":---"] + Array(repeating: "---:", count: header.count - 2)
        var lines = [line(header), line(alignment)]
        for row in rows {
            var cells = [escape(row.result.target.name), row.result.mode.rawValue] + timeCells(row.summary)
            cells += [Metric.userCPU, .systemCPU, .maxRSS, .majorFaults].map { metric in
                row.resource(metric).map { HumanUnits.format($0.median, unit: metric.unit) } ?? "–"
            }
            cells.append(row.runsText)
            if hasReference {
                cells.append(row.isReference ? "reference" : row.comparison?.phrase(reference: escape(reference ?? "")) ?? "–")
            }
            lines.append(line(cells))
        }
        return (["## Launch times", ""] + lines).joined(separator: "\n")
    }

    private func timeCells(_ summary: MetricSummary?) -> [String] {
        guard let summary else { return ["no successful run", "", "", "", ""] }
        return [
            HumanUnits.duration(summary.median), HumanUnits.duration(summary.mad),
            "\(HumanUnits.duration(summary.medianLow)) … \(HumanUnits.duration(summary.medianHigh))",
            HumanUnits.duration(summary.min), HumanUnits.duration(summary.max),
        ]
    }

    private func milestoneTable(_ rows: [ReportRow]) -> String {
        var lines = [
            line(["Target", "Mode", "Milestone", "Median", "95% CI of median", "p95"]),
            line([":---", ":---", ":---", "---:", "---:", "---:"]),
        ]
        for row in rows {
            for (metric, summary) in row.details {
                lines.append(
                    line([
                        escape(row.result.target.name), row.result.mode.rawValue, escape(metric.detailName),
                        HumanUnits.duration(summary.median),
                        "\(HumanUnits.duration(summary.medianLow)) … \(HumanUnits.duration(summary.medianHigh))",
                        HumanUnits.duration(summary.p95),
                    ]))
            }
        }
        return (["### Milestones (time since spawn)", ""] + lines).joined(separator: "\n")
    }

    private func budgetTable(_ budgets: [BudgetEvaluation]) -> String {
        var lines = [
            line(["", "Target", "Mode", "Metric", "Statistic", "Limit", "Measured"]),
            line([":---:", ":---", ":---", ":---", ":---", "---:", ":---"]),
        ]
        for budget in budgets {
            lines.append(
                line([
                    budget.passed ? "✅" : "❌", escape(budget.target), budget.mode.rawValue, escape(budget.metric),
                    budget.statistic.rawValue, escape(budget.limit), escape(budget.message),
                ]))
        }
        return (["### Budgets", ""] + lines).joined(separator: "\n")
    }

    private func comparisonTable(_ comparison: BaselineComparison) -> String {
        var lines = [
            line(["", "Target", "Mode", "Metric", "Baseline", "Now", "Change", "95% CI", "p-value"]),
            line([":---:", ":---", ":---", ":---", "---:", "---:", "---:", "---:", "---:"]),
        ]
        let rows = comparison.changes.map { ($0, false) } + (comparison.drift ?? []).map { ($0, true) }
        for (change, isDrift) in rows {
            let mark =
                if isDrift { "↔ drift" } else {
                    switch change.verdict {
                    case .regressed: "🔴 regressed"
                    case .improved: "🟢 improved"
                    case .unchanged: "⚪"
                    }
                }
            lines.append(
                line([
                    mark, escape(change.target), change.mode.rawValue, "\(escape(change.metric)) \(change.statistic)",
                    HumanUnits.format(change.baseline, unit: change.unit), HumanUnits.format(change.current, unit: change.unit),
                    MetricChange.percent(change.change)
                        + (change.reference.map { " vs \(escape($0)) (\(MetricChange.percent(change.measuredChange ?? 0)) measured)" } ?? ""),
                    "\(MetricChange.percent(change.changeLow)) … \(MetricChange.percent(change.changeHigh))",
                    change.pValue < 0.0001 ? "< 0.0001" : HumanUnits.fixed(change.pValue, decimals: 4),
                ]))
        }
        var section = ["### Compared with baseline \(escape(comparison.baseline))", ""] + lines
        if let first = comparison.changes.first {
            section += [
                "",
                "A change is a regression (or an improvement) when it is beyond its threshold "
                    + "(default \(MetricChange.percent(first.threshold).dropFirst())) and a Mann–Whitney U test of the runs gives "
                    + "p < \(first.significance). Baseline measured \(escape(comparison.baselineDate)) "
                    + "by launchprof \(escape(comparison.baselineToolVersion)).",
            ]
        }
        if let reference = comparison.reference {
            section += [
                "",
                "Times are compared relative to \(escape(reference)), measured in both runs: \"vs\" is the change "
                    + "of the ratio to it. Its own change (↔ drift) is the machine's, not the code's, and never gates.",
            ]
        }
        section += comparison.warnings.map { "- ⚠️ \(escape($0.message))" }
        section += attributionSection(comparison)
        return section.joined(separator: "\n")
    }

    /// Why each regressed target's time to ready changed: its contributors,
    /// largest first, and what no interval explains.
    private func attributionSection(_ comparison: BaselineComparison) -> [String] {
        var section: [String] = []
        for attribution in comparison.regressedAttributions {
            section += [
                "",
                "#### Why \(escape(attribution.target)) (\(attribution.mode.rawValue)) changed by "
                    + "\(LaunchAttribution.signed(attribution.totalChange))", "",
            ]
            section += why(attribution)
        }
        return section
    }

    /// One attribution's lines: the libraries added or dropped, then its
    /// contributors as a table, largest first, and what no interval
    /// explains (`run --baseline`'s section, and a regressed gate's).
    package func why(_ attribution: LaunchAttribution) -> [String] {
        var section = attribution.librarySentences.map { "- \(escape($0))" }
        let contributors = attribution.contributors
        guard !contributors.isEmpty else {
            section.append("No part of the launch changed beyond noise: the change is unexplained.")
            return section
        }
        var table = [line(LaunchAttribution.tableHeader), "|---|---:|---:|---:|---|---:|---:|"]
        for part in contributors.prefix(8) {
            var cells = part.cells.map(escape)
            cells[3] = "**\(cells[3])**"  // the change
            table.append(line(cells))
        }
        section += table
        if let sentence = attribution.unexplainedSentence { section += ["", escape(sentence) + "."] }
        return section
    }

    private func machineLine(_ document: ResultsDocument) -> String {
        let machine = document.machine
        return "Measured on \(escape(machine.hostname)) (\(escape(machine.cpuModel)), \(machine.cpuCount) CPUs, "
            + "\(HumanUnits.bytes(Double(machine.memoryBytes))), \(escape(machine.kernel))) "
            + "by launchprof \(document.toolVersion) at \(document.date)."
    }

    private func line(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }

    /// Pipes would split a cell; backslash-escape them (and backslashes).
    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\n", with: " ")
    }
}
