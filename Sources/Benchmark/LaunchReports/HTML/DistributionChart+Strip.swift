import LaunchSupport

// MARK: - One strip

extension DistributionChart {
    /// What the value column says about a strip: median, p90, runs, budgets.
    func valueText(_ series: DistributionSeries) -> String {
        guard let summary = series.summary else { return "" }
        var text = "median \(HumanUnits.duration(summary.median)) · p90 \(HumanUnits.duration(summary.p90)) · "
        text +=
            series.values.count == series.totalRuns
            ? "\(series.totalRuns) runs" : "\(series.values.count) of \(series.totalRuns) runs"
        for budget in budgets(for: series) { text += " · " + Self.budgetText(budget) }
        return text
    }

    func drawStrip(_ series: DistributionSeries, y: Double, scale: LinearScale, valueX: Double, canvas: inout SVGCanvas) {
        let colour = series.isBaseline ? ChartPalette.baseline : ChartPalette.colour(of: series.mode)
        let label = "\(target) (\(series.label)), \(series.metric.displayName)"
        canvas.text(series.label, x: 24, y: y + 15, colour: colour == ChartPalette.warm ? "#8a5a00" : colour)
        guard let summary = series.summary, let quartiles = series.quartiles,
            let low = series.values.map(\.value).min(), let high = series.values.map(\.value).max()
        else {
            let text = series.totalRuns == 0 ? "no runs" : "no successful run" + (series.failureSummary.map { ": \($0)" } ?? "")
            let room = width - scale.range.lowerBound - 16
            canvas.text(
                TextMeasure.fitted(text, width: room), x: scale.range.lowerBound, y: y + 15, colour: ChartPalette.regressed,
                title: text)
            return
        }
        let middle = y + Self.stripHeight / 2
        let ms = ReportNumber.milliseconds
        canvas.line(
            x1: scale(low), y1: middle, x2: scale(high), y2: middle, style: ShapeStyle(stroke: colour),
            title: "\(label), min–max: \(ms(low)) – \(ms(high))")
        let boxStyle = series.isBaseline ? baselineStyle(&canvas) : ShapeStyle(fill: colour, stroke: colour, opacity: 0.35)
        canvas.rect(
            x: scale(quartiles.low), y: y + 5, width: max(1, scale(quartiles.high) - scale(quartiles.low)),
            height: Self.stripHeight - 10, style: boxStyle, title: "\(label), p25–p75: \(ms(quartiles.low)) – \(ms(quartiles.high))")
        let dot =
            series.isBaseline
            ? ShapeStyle(fill: "#ffffff", stroke: ChartPalette.baseline, strokeWidth: 1)
            : ShapeStyle(fill: colour, stroke: "#ffffff", strokeWidth: 0.5, opacity: 0.85)
        for (position, (run, value)) in series.values.enumerated() {
            // A fixed jitter pattern, so the same results always draw the same.
            let jitter = Double((position * 7) % 9 - 4) * 1.6
            canvas.circle(x: scale(value), y: middle + jitter, radius: 2.6, style: dot, title: "\(label), run \(run): \(ms(value))")
        }
        canvas.line(
            x1: scale(summary.median), y1: y + 3, x2: scale(summary.median), y2: y + Self.stripHeight - 3,
            style: ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 3), title: "\(label), median: \(ms(summary.median))")
        canvas.line(
            x1: scale(summary.p90), y1: y + 1, x2: scale(summary.p90), y2: y + Self.stripHeight - 1,
            style: ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1.5, dash: ChartPalette.markDash),
            title: "\(label), p90: \(ms(summary.p90))")
        let budgets = budgets(for: series)
        for budget in budgets {
            let x = scale(budget.limitValue ?? 0)
            let style = Self.budgetStyle(passed: budget.passed)
            let title = "\(label), budget \(Self.budgetText(budget)): \(budget.message)"
            canvas.line(x1: x, y1: y, x2: x, y2: y + Self.stripHeight, style: style, title: title)
            canvas.polygon(
                [(x - 4, y), (x + 4, y), (x, y + 5)], style: ShapeStyle(fill: style.stroke ?? ChartPalette.budget), title: title)
        }
        let failed = budgets.contains { !$0.passed }
        canvas.text(
            valueText(series), x: valueX, y: y + 15, size: 10.5, bold: failed, colour: failed ? ChartPalette.budget : ChartPalette.ink)
    }
}
