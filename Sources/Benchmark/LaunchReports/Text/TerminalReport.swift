import LaunchEngine
import LaunchSupport

/// The table `launchprof run` prints: one table per mode, a row per target
/// with time to ready (median ± MAD), min … max, CPU, max RSS, major faults
/// and runs; traced milestones as sub-rows; the comparison with the reference
/// target when one is set; warnings below; then budgets, the comparison with
/// a baseline and the verdict, when there are any. Colour only when asked for.
package struct TerminalReport: ResultsExporter {
    /// The colours used.
    package var style: ANSIStyle

    /// A report, coloured when `colour`.
    package init(colour: Bool) { style = ANSIStyle(enabled: colour) }

    package func export(_ document: ResultsDocument) throws -> String {
        var blocks = ReportRow.rowsByMode(document).map { mode, rows in table(mode: mode, rows: rows, document: document) }
        let counts = CountsReportLines(style: style).lines(document)
        if !counts.isEmpty { blocks.append(counts.joined(separator: "\n")) }
        let warnings = warningLines(document)
        if !warnings.isEmpty { blocks.append(warnings.joined(separator: "\n")) }
        blocks += GateReportLines(style: style).lines(document)
        return blocks.joined(separator: "\n\n") + "\n"
    }

    // MARK: - Table

    /// Sub-rows (pre-main, main, milestones) shown per target: a program
    /// that records thousands of milestones gets a table a person can read,
    /// the first ones and a row that counts the rest, which the results
    /// JSON holds every one of (and the Markdown and HTML reports).
    package static let detailRowLimit = 20

    private func table(mode: LaunchMode, rows: [ReportRow], document: ResultsDocument) -> String {
        let hasReference = rows.contains(where: \.isReference)
        var header = ["Target", "Time to ready (median ± MAD)", "Min … Max", "User", "System", "Max RSS", "Major faults", "Runs"]
        if hasReference { header.append("Relative") }
        var table = TextTable(alignments: [.left, .right, .right, .right, .right, .right, .right, .right, .left])
        table.append(header)
        var kinds: [RowKind] = [.header]
        for row in rows {
            table.append(mainCells(row, hasReference: hasReference, reference: document.reference ?? ""))
            kinds.append(row.successfulRuns == row.result.runs.count ? .target : .failing)
            let shown = row.details.count > Self.detailRowLimit ? Array(row.details.prefix(Self.detailRowLimit - 1)) : row.details
            let hidden = row.details.count - shown.count
            for (position, detail) in shown.enumerated() {
                let branch = position == shown.count - 1 && hidden == 0 ? "└ " : "├ "
                table.append(["  " + branch + detail.metric.detailName, medianAndSpread(detail.summary), range(detail.summary)])
                kinds.append(.detail)
            }
            if hidden > 0 {
                table.append(["  └ \(hidden) more: --export-json"])
                kinds.append(.detail)
            }
        }
        let title = style.bold("\(mode == .cold ? "Cold" : "Warm") launch") + (mode == .cold ? " (page cache evicted before each run)" : "")
        let lines = table.lines { row, column, cell in self.styled(cell, kind: kinds[row], column: column) }
        return ([title] + lines.map { "  " + $0 }).joined(separator: "\n")
    }

    private enum RowKind { case header, target, failing, detail }

    private func styled(_ cell: String, kind: RowKind, column: Int) -> String {
        switch kind {
        case .header: style.dim(cell)
        case .target where column == 0: style.cyan(cell)
        case .failing where column == 0 || column == 7: style.red(cell)
        case .target, .failing: column == 1 ? style.bold(cell) : cell
        case .detail: style.dim(cell)
        }
    }

    private func mainCells(_ row: ReportRow, hasReference: Bool, reference: String) -> [String] {
        let resource = { (metric: Metric) in row.resource(metric).map { HumanUnits.format($0.median, unit: metric.unit) } ?? "–" }
        var cells = [
            row.result.target.name,
            row.summary.map(medianAndSpread) ?? "no successful run",
            row.summary.map(range) ?? "",
            resource(.userCPU), resource(.systemCPU), resource(.maxRSS), resource(.majorFaults),
            row.runsText,
        ]
        if hasReference {
            cells.append(row.isReference ? "reference" : row.comparison?.phrase(reference: reference) ?? "–")
        }
        return cells
    }

    // MARK: - Cells

    /// "14.2 ms ± 310 µs": each number in its own unit, so a small spread
    /// keeps its three significant digits without a row of zeros.
    func medianAndSpread(_ summary: MetricSummary) -> String {
        "\(HumanUnits.duration(summary.median)) ± \(HumanUnits.duration(summary.mad))"
    }

    func range(_ summary: MetricSummary) -> String {
        "\(HumanUnits.duration(summary.min)) … \(HumanUnits.duration(summary.max))"
    }

    // MARK: - Notes and warnings

    /// What each target's launch read and started, then the warnings: one
    /// line per problem, naming every target and mode it applies to, so the
    /// same caveat on six results is read once. Names that came from the
    /// programs themselves are printed with control characters escaped.
    private func warningLines(_ document: ResultsDocument) -> [String] {
        var facts: [String] = []
        var expected: [String] = []
        for result in document.results {
            let about = LaunchFacts(result)
            for sentence in [about.readSentence(), about.treeSentence()].compactMap({ $0 }) {
                facts.append("  " + TerminalText.sanitized("\(result.label): \(sentence)"))
            }
            for path in about.expectedResident where !expected.contains(path) { expected.append(path) }
        }
        if !expected.isEmpty {
            facts.append(
                "  cold runs leave cached what launchprof itself maps, as any running system does: "
                    + TerminalText.sanitized(expected.map(LaunchFacts.fileName).joined(separator: ", ")))
        }
        var grouped: [(text: String, labels: [String])] = []
        for result in document.results {
            for warning in result.warnings {
                if let index = grouped.firstIndex(where: { $0.text == warning.message }) {
                    grouped[index].labels.append(result.label)
                } else {
                    grouped.append((warning.message, [result.label]))
                }
            }
        }
        let warnings = grouped.map {
            style.yellow("  " + TerminalText.sanitized("\($0.labels.joined(separator: ", ")): \($0.text)"))
        }
        var lines: [String] = []
        if !facts.isEmpty { lines += [style.bold("Launches")] + facts }
        if !warnings.isEmpty { lines += (lines.isEmpty ? [] : [""]) + [style.yellow(style.bold("Warnings"))] + warnings }
        return lines
    }
}
