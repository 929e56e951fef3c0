import LaunchEngine
import LaunchSupport

/// The budgets and the baseline comparison as plain lines, for the terminal
/// report: a status word, the check, the numbers.
package struct GateReportLines {
    var style: ANSIStyle

    package init(style: ANSIStyle) { self.style = style }

    package func lines(_ document: ResultsDocument) -> [String] {
        var blocks: [[String]] = []
        if let budgets = document.budgets, !budgets.isEmpty {
            var table = TextTable(alignments: [.left, .left, .left])
            var passed: [Bool] = []
            for budget in budgets {
                table.append([budget.passed ? "ok" : "FAIL", budget.title, budget.message])
                passed.append(budget.passed)
            }
            let rows = table.lines { row, column, cell in
                column == 0 ? (passed[row] ? style.green(cell) : style.red(style.bold(cell))) : cell
            }
            blocks.append([style.bold("Budgets")] + rows.map { "  " + $0 })
        }
        if let comparison = document.comparison {
            var lines = [style.bold("Compared with baseline \(comparison.baseline)") + " (measured \(comparison.baselineDate))"]
            var table = TextTable(alignments: [.left, .left, .left])
            var verdicts: [MetricChange.Verdict?] = []
            for change in comparison.changes {
                table.append([change.verdict.rawValue, change.title, change.summary])
                verdicts.append(change.verdict)
            }
            for change in comparison.drift ?? [] {
                table.append(["drift", change.title, change.summary])
                verdicts.append(nil)
            }
            lines += table.lines { row, column, cell in
                guard column == 0 else { return cell }
                switch verdicts[row] {
                case .regressed: return style.red(style.bold(cell))
                case .improved: return style.green(cell)
                case .unchanged, nil: return style.dim(cell)
                }
            }.map { "  " + $0 }
            if let first = comparison.changes.first {
                lines.append(
                    style.dim(
                        "  regressed/improved: change beyond ±\(MetricChange.percent(first.threshold).dropFirst()) "
                            + "and Mann–Whitney p < \(first.significance); [..] is the "
                            + "\(Int(first.confidence * 100))% CI of the change"))
            }
            if let reference = comparison.reference {
                lines.append(
                    style.dim(
                        "  times are compared relative to \(reference), measured in both runs: "
                            + "its own change (drift) is the machine's, not the code's, and never gates"))
            }
            lines += comparison.warnings.map { style.yellow("  warning: \($0)") }
            blocks.append(lines)
            // Why: after a regression verdict, the largest contributors.
            var why: [String] = []
            for attribution in comparison.regressedAttributions {
                why += attribution.summaryLines.map { "  " + $0 }
                if let difference = comparison.profileDifferences?.first(where: { $0.target == attribution.target }) {
                    why += difference.summaryLines.map { "  " + $0 }
                    if let path = difference.flameGraph { why.append("  \(attribution.target): differential flame graph \(path)") }
                }
            }
            if !why.isEmpty { blocks.append([style.bold("Why (largest contributors to the change of time to ready)")] + why) }
        }
        if let headline = GateVerdict.headline(document) {
            let failed = GateVerdict(document).exitStatus != .success
            blocks.append([failed ? style.red(style.bold("FAILED: \(headline)")) : style.green(style.bold("PASSED: \(headline)"))])
        }
        return blocks.map { $0.joined(separator: "\n") }
    }
}
