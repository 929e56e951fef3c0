/// Strip and box plots of one target: for each time metric (time to ready,
/// process entry, main, each milestone) a strip per mode, cold beside warm,
/// and the baseline's strip beside each when there is one. Every run is a
/// dot; the box is the middle half, whiskers reach min and max, the thick
/// line is the median and the dashed tick the p90, each with exact hover text.
package struct DistributionChart: Sendable {
    package var target: String
    /// One group per metric, its strips in drawing order.
    package var groups: [(metric: Metric, series: [DistributionSeries])]
    package var id: String
    package var width: Double = 1160

    /// `results` and `baselines` are the results of one target (any modes).
    package init(target: String, results: [BenchmarkResult], baselines: [BenchmarkResult] = [], id: String) {
        self.target = target
        self.id = id
        let ordered = LaunchMode.allCases.flatMap { mode in results.filter { $0.mode == mode } }
        groups = DistributionSeries.timeMetrics(of: ordered).map { metric in
            let series = ordered.flatMap { result in
                let baseline = baselines.first { $0.mode == result.mode }
                    .map { [DistributionSeries(metric: metric, result: $0, isBaseline: true)] } ?? []
                return baseline + [DistributionSeries(metric: metric, result: result, isBaseline: false)]
            }
            return (metric, series)
        }
    }

    package var title: String { "\(target): time to ready and milestones, every run" }

    static let groupHeight = 17.0
    static let stripHeight = 22.0
    static let labelWidth = 150.0
    static let valueWidth = 250.0

    package func render() -> SVGCanvas {
        var canvas = SVGCanvas(width: width, height: 0, idPrefix: id)
        canvas.text(title, x: 12, y: 17, size: 13, bold: true)
        let allSeries = groups.flatMap(\.series)
        guard allSeries.contains(where: { !$0.values.isEmpty }) else {
            let reason = allSeries.first?.failureSummary ?? "no run measured a time"
            canvas.text("no successful run: \(reason)", x: 12, y: 40, colour: ChartPalette.regressed)
            canvas.height = 54
            return canvas
        }
        let largest = allSeries.flatMap { $0.values.map(\.value) }.max() ?? 0
        let plotLeft = 12 + Self.labelWidth
        let scale = LinearScale(upTo: largest, unit: .nanoseconds, range: plotLeft...(width - Self.valueWidth - 16), tickCount: 8)
        let top = 30.0
        let bottom = top + groups.reduce(0) { $0 + Self.groupHeight + Double($1.series.count) * Self.stripHeight }
        canvas.timeAxis(scale, top: top, bottom: bottom)
        var y = top
        for group in groups {
            canvas.text(group.metric.displayName, x: 12, y: y + 13, bold: true)
            y += Self.groupHeight
            for series in group.series {
                drawStrip(series, y: y, scale: scale, canvas: &canvas)
                y += Self.stripHeight
            }
        }
        let legend: [(swatch: LegendSwatch, name: String)] = [
            (.dot(ChartPalette.ink), "a run"), (.box(ShapeStyle(fill: ChartPalette.band, stroke: ChartPalette.ink)), "middle half (p25–p75)"),
            (.line(ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1)), "min–max"),
            (.line(ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 3)), "median"),
            (.line(ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1.5, dash: ChartPalette.markDash)), "p90"),
            (.box(ShapeStyle(fill: ChartPalette.cold)), "cold"), (.box(ShapeStyle(fill: ChartPalette.warm)), "warm"),
        ] + (allSeries.contains(where: \.isBaseline) ? [(.box(baselineStyle(&canvas)), "baseline (hollow dots)")] : [])
        canvas.height = canvas.legend(legend, x: 12, y: bottom + 32) + 6
        return canvas
    }

    private func baselineStyle(_ canvas: inout SVGCanvas) -> ShapeStyle {
        ShapeStyle(fill: canvas.hatch("baseline", colour: "#b0b0b0", background: "#eeeeee"), stroke: ChartPalette.baseline)
    }

    private func drawStrip(_ series: DistributionSeries, y: Double, scale: LinearScale, canvas: inout SVGCanvas) {
        let colour = series.isBaseline ? ChartPalette.baseline : ChartPalette.colour(of: series.mode)
        let label = "\(target) (\(series.label)), \(series.metric.displayName)"
        canvas.text(series.label, x: 24, y: y + 15, colour: colour == ChartPalette.warm ? "#8a5a00" : colour)
        let valueX = width - Self.valueWidth
        guard let summary = series.summary, let quartiles = series.quartiles,
            let low = series.values.map(\.value).min(), let high = series.values.map(\.value).max()
        else {
            let text = series.totalRuns == 0 ? "no runs" : "no successful run" + (series.failureSummary.map { ": \($0)" } ?? "")
            canvas.text(TextMeasure.fitted(text, width: width - scale.range.lowerBound - 16), x: scale.range.lowerBound, y: y + 15, colour: ChartPalette.regressed, title: text)
            return
        }
        let middle = y + Self.stripHeight / 2
        canvas.line(x1: scale(low), y1: middle, x2: scale(high), y2: middle, style: ShapeStyle(stroke: colour), title: "\(label), min–max: \(ReportNumber.milliseconds(low)) – \(ReportNumber.milliseconds(high))")
        let boxStyle = series.isBaseline ? baselineStyle(&canvas) : ShapeStyle(fill: colour, stroke: colour, opacity: 0.35)
        canvas.rect(x: scale(quartiles.low), y: y + 5, width: max(1, scale(quartiles.high) - scale(quartiles.low)), height: Self.stripHeight - 10, style: boxStyle, title: "\(label), p25–p75: \(ReportNumber.milliseconds(quartiles.low)) – \(ReportNumber.milliseconds(quartiles.high))")
        for (position, (run, value)) in series.values.enumerated() {
            // A fixed jitter pattern, so the same results always draw the same.
            let jitter = Double((position * 7) % 9 - 4) * 1.6
            let dot = series.isBaseline ? ShapeStyle(fill: "#ffffff", stroke: ChartPalette.baseline, strokeWidth: 1) : ShapeStyle(fill: colour, stroke: "#ffffff", strokeWidth: 0.5, opacity: 0.85)
            canvas.circle(x: scale(value), y: middle + jitter, radius: 2.6, style: dot, title: "\(label), run \(run): \(ReportNumber.milliseconds(value))")
        }
        canvas.line(x1: scale(summary.median), y1: y + 3, x2: scale(summary.median), y2: y + Self.stripHeight - 3, style: ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 3), title: "\(label), median: \(ReportNumber.milliseconds(summary.median))")
        canvas.line(x1: scale(summary.p90), y1: y + 1, x2: scale(summary.p90), y2: y + Self.stripHeight - 1, style: ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1.5, dash: ChartPalette.markDash), title: "\(label), p90: \(ReportNumber.milliseconds(summary.p90))")
        var text = "median \(HumanUnits.duration(summary.median)) · p90 \(HumanUnits.duration(summary.p90)) · "
        text += series.values.count == series.totalRuns ? "\(series.totalRuns) runs" : "\(series.values.count) of \(series.totalRuns) runs"
        canvas.text(text, x: valueX, y: y + 15, size: 10.5, colour: ChartPalette.ink)
    }
}
