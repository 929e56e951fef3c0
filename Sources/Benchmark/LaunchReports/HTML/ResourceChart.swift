import LaunchEngine
import LaunchSupport

/// Resources per target and mode, medians over the successful runs: CPU
/// time (user and system stacked), max RSS, major and minor page faults.
/// Bars are labelled with their value; hover text has the exact numbers.
/// Budgets on CPU, max RSS or faults are dashed lines across their row.
package struct ResourceChart: Sendable {
    package var results: [BenchmarkResult]
    package var budgets: [BudgetEvaluation]
    package var id: String
    package var width: Double = 1160

    package init(results: [BenchmarkResult], budgets: [BudgetEvaluation] = [], id: String = "resources") {
        self.results = results
        self.budgets = budgets
        self.id = id
    }

    package var title: String { "Resources per launch (median of the successful runs)" }

    private struct Panel {
        var title: String
        var metrics: [Metric]
        var unit: Metric.Unit
        /// The metric a budget on this panel's total names.
        var total: Metric
    }

    private static let panels = [
        Panel(title: "CPU time: user + system", metrics: [.userCPU, .systemCPU], unit: .nanoseconds, total: .cpu),
        Panel(title: "max RSS", metrics: [.maxRSS], unit: .bytes, total: .maxRSS),
        Panel(title: "major page faults", metrics: [.majorFaults], unit: .count, total: .majorFaults),
        Panel(title: "minor page faults", metrics: [.minorFaults], unit: .count, total: .minorFaults),
    ]

    /// The panels, and instructions to ready when a result counted them (`--counts`).
    private var panels: [Panel] {
        guard results.contains(where: { $0.summaries[Metric.instructions.key] != nil }) else { return Self.panels }
        let sources = Set(results.compactMap { $0.counters?.source.rawValue }).sorted().joined(separator: ", ")
        return Self.panels + [
            Panel(title: "instructions to ready (\(sources))", metrics: [.instructions], unit: .count, total: .instructions)
        ]
    }

    private func budgets(_ panel: Panel, _ result: BenchmarkResult) -> [BudgetEvaluation] {
        budgets.filter {
            $0.target == result.target.name && $0.mode == result.mode && $0.metric == panel.total.key && $0.limitValue != nil
        }
    }
    static let rowHeight = 20.0

    package func render() -> SVGCanvas {
        var canvas = SVGCanvas(width: width, height: 0, idPrefix: id)
        canvas.text(title, x: 12, y: 17, size: 13, bold: true)
        let labelWidth = min(260, max(120, results.map { TextMeasure.width($0.label) }.max() ?? 0) + 16)
        let panels = self.panels
        let panelWidth = (width - 12 - labelWidth - 8) / Double(panels.count)
        let top = 44.0
        for (row, result) in results.enumerated() {
            let y = top + Double(row) * Self.rowHeight
            if row % 2 == 0 {
                canvas.rect(x: 8, y: y, width: width - 16, height: Self.rowHeight, style: ShapeStyle(fill: ChartPalette.band))
            }
            canvas.text(TextMeasure.fitted(result.label, width: labelWidth - 12), x: 12, y: y + 14, title: result.label)
        }
        for (index, panel) in panels.enumerated() {
            let left = 12 + labelWidth + Double(index) * panelWidth
            draw(panel, left: left, width: panelWidth - 16, top: top, canvas: &canvas)
        }
        var y = top + Double(results.count) * Self.rowHeight + 18
        canvas.text(
            "max RSS is an upper bound for small programs: Linux reports launchprof's own pre-exec peak when it is larger.",
            x: 12, y: y, size: 10, colour: ChartPalette.mutedInk)
        y = canvas.legend(
            [
                (.box(ShapeStyle(fill: ChartPalette.cold)), "cold"), (.box(ShapeStyle(fill: ChartPalette.warm)), "warm"),
                (.box(systemStyle(ChartPalette.ink, &canvas)), "system CPU (hatched part of the CPU bar)"),
            ], x: 12, y: y + 18)
        canvas.height = y + 6
        return canvas
    }

    private func systemStyle(_ colour: String, _ canvas: inout SVGCanvas) -> ShapeStyle {
        ShapeStyle(fill: canvas.hatch("system-\(colour.dropFirst())", colour: colour, background: "#ffffff", spacing: 4), stroke: colour)
    }

    private func draw(_ panel: Panel, left: Double, width: Double, top: Double, canvas: inout SVGCanvas) {
        canvas.text(panel.title, x: left, y: top - 8, bold: true)
        let totals = results.map { result in panel.metrics.compactMap { result.summaries[$0.key]?.median }.reduce(0, +) }
        let texts = results.map { result in
            panel.metrics.compactMap { metric in result.summaries[metric.key].map { HumanUnits.format($0.median, unit: metric.unit) } }
                .joined(separator: " + ") + budgets(panel, result).map { $0.passed ? " ✓" : " ✗" }.joined()
        }
        let limits = results.flatMap { budgets(panel, $0).compactMap(\.limitValue) }
        // A long value text (a hand-edited file's 1e-300) takes at most half the row.
        let valueRoom = (texts.map { TextMeasure.width($0, size: 10) }.max() ?? 0) + 8
        let scale = LinearScale(
            upTo: (totals + limits).max() ?? 0, unit: panel.unit, range: left...(left + max(width / 2, width - valueRoom)))
        let bottom = top + Double(results.count) * Self.rowHeight
        canvas.line(x1: left, y1: top, x2: left, y2: bottom, style: ShapeStyle(stroke: ChartPalette.mutedInk))
        for (row, result) in results.enumerated() {
            let y = top + Double(row) * Self.rowHeight
            guard result.summaries[panel.metrics[0].key] != nil else {
                canvas.text("no successful run", x: left + 4, y: y + 14, size: 10, colour: ChartPalette.regressed)
                continue
            }
            let colour = ChartPalette.colour(of: result.mode)
            var x = left
            for (part, metric) in panel.metrics.enumerated() {
                guard let summary = result.summaries[metric.key] else { continue }
                let length = scale(summary.median) - left
                let title =
                    "\(result.label), \(metric.displayName), median of \(summary.count) runs: "
                    + ReportNumber.exact(summary.median, unit: metric.unit)
                    + " (min \(ReportNumber.exact(summary.min, unit: metric.unit)), "
                    + "max \(ReportNumber.exact(summary.max, unit: metric.unit)))"
                let style = part == 0 ? ShapeStyle(fill: colour) : systemStyle(colour, &canvas)
                canvas.rect(x: x, y: y + 4, width: length, height: Self.rowHeight - 8, style: style, title: title)
                x += length
            }
            for budget in budgets(panel, result) {
                let limit = scale(budget.limitValue ?? 0)
                let title = "\(result.label), budget \(DistributionChart.budgetText(budget)): \(budget.message)"
                canvas.line(
                    x1: limit, y1: y + 1, x2: limit, y2: y + Self.rowHeight - 1,
                    style: DistributionChart.budgetStyle(passed: budget.passed), title: title)
            }
            let failed = budgets(panel, result).contains { !$0.passed }
            canvas.text(texts[row], x: x + 4, y: y + 14, size: 10, bold: failed, colour: failed ? ChartPalette.budget : ChartPalette.ink)
        }
    }
}
