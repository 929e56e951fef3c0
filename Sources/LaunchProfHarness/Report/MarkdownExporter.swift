import Foundation

/// A GitHub-flavoured Markdown report (`--export-markdown`), like hyperfine's
/// but with the median's confidence interval, resources, milestones, the
/// comparison with the reference target, warnings and the machine.
public struct MarkdownExporter: ResultsExporter {
    public init() {}

    public func export(_ document: ResultsDocument) throws -> String {
        let rows = ReportRow.rowsByMode(document).flatMap(\.rows)
        var sections = [launchTable(rows, reference: document.reference)]
        if rows.contains(where: { !$0.details.isEmpty }) { sections.append(milestoneTable(rows)) }
        let warnings = document.results.flatMap { result in result.warnings.map { "- **\(escape(result.label))**: \(escape($0))" } }
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
                lines.append(line([
                    escape(row.result.target.name), row.result.mode.rawValue, escape(metric.detailName),
                    HumanUnits.duration(summary.median),
                    "\(HumanUnits.duration(summary.medianLow)) … \(HumanUnits.duration(summary.medianHigh))",
                    HumanUnits.duration(summary.p95),
                ]))
            }
        }
        return (["### Milestones (time since spawn)", ""] + lines).joined(separator: "\n")
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
