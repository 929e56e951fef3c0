import LaunchEngine

/// Strip and box plots of one target: for each time metric (time to ready,
/// process entry, main, each milestone) a strip per mode, cold beside warm,
/// and the baseline's strip beside each when there is one. Every run is a
/// dot; the box is the middle half, whiskers reach min and max, the thick
/// line is the median and the dashed tick the p90, each with exact hover text.
/// A budget is a dashed line across its strip: green when it passed, red
/// and thicker when it failed, with the verdict in words beside the strip.
package struct DistributionChart: Sendable {
    package var target: String
    package var budgets: [BudgetEvaluation]
    /// Time to ready is time to exit (the exit probe): budgets on either apply.
    private var readyIsExit: Bool
    /// One group per metric, its strips in drawing order.
    package var groups: [(metric: Metric, series: [DistributionSeries])]
    package var id: String
    package var width: Double = 1160

    /// `results` and `baselines` are the results of one target (any modes).
    package init(
        target: String, results: [BenchmarkResult], baselines: [BenchmarkResult] = [], budgets: [BudgetEvaluation] = [],
        id: String
    ) {
        self.target = target
        self.id = id
        self.budgets = budgets
        readyIsExit = results.first?.target.ready == .exit
        let ordered = LaunchMode.allCases.flatMap { mode in results.filter { $0.mode == mode } }
        groups = DistributionSeries.timeMetrics(of: ordered).map { metric in
            let series = ordered.flatMap { result in
                let baseline =
                    baselines.first { $0.mode == result.mode }
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

    /// The budgets drawn on a strip: same metric and mode, with a limit.
    func budgets(for series: DistributionSeries) -> [BudgetEvaluation] {
        guard !series.isBaseline else { return [] }
        return budgets.filter { budget in
            budget.mode == series.mode && budget.limitValue != nil
                && (budget.metric == series.metric.key
                    || (readyIsExit && series.metric == .wallToReady && budget.metric == Metric.wallToExit.key))
        }
    }

    /// "p95 ≤ 40.0 ms ✓", "median ≤ 1.2x hello-c ✗ FAILED".
    static func budgetText(_ budget: BudgetEvaluation) -> String {
        limitText(budget) + (budget.passed ? " ✓" : " ✗ FAILED")
    }

    /// "p95 ≤ 40.0 ms".
    static func limitText(_ budget: BudgetEvaluation) -> String {
        let statistic = budget.statistic == .p50 ? "median" : budget.statistic.rawValue
        return "\(statistic) \(budget.limit.replacingOccurrences(of: "<=", with: "≤"))"
    }

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
        let limits = allSeries.flatMap { budgets(for: $0).compactMap(\.limitValue) }
        let largest = (allSeries.flatMap { $0.values.map(\.value) } + limits).max() ?? 0
        let plotLeft = 12 + Self.labelWidth
        let valueWidth = min(420, max(240, (allSeries.map { TextMeasure.width(valueText($0), size: 10.5, bold: true) }.max() ?? 0) + 20))
        let scale = LinearScale(upTo: largest, unit: .nanoseconds, range: plotLeft...(width - valueWidth - 16), tickCount: 8)
        let top = 30.0
        let bottom = top + groups.reduce(0) { $0 + Self.groupHeight + Double($1.series.count) * Self.stripHeight }
        canvas.timeAxis(scale, top: top, bottom: bottom)
        var y = top
        for group in groups {
            canvas.text(group.metric.displayName, x: 12, y: y + 13, bold: true)
            y += Self.groupHeight
            for series in group.series {
                drawStrip(series, y: y, scale: scale, valueX: width - valueWidth, canvas: &canvas)
                y += Self.stripHeight
            }
        }
        let legend: [(swatch: LegendSwatch, name: String)] =
            [
                (.dot(ChartPalette.ink), "a run"),
                (.box(ShapeStyle(fill: ChartPalette.band, stroke: ChartPalette.ink)), "middle half (p25–p75)"),
                (.line(ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1)), "min–max"),
                (.line(ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 3)), "median"),
                (.line(ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1.5, dash: ChartPalette.markDash)), "p90"),
                (.box(ShapeStyle(fill: ChartPalette.cold)), "cold"), (.box(ShapeStyle(fill: ChartPalette.warm)), "warm"),
            ] + (allSeries.contains(where: \.isBaseline) ? [(.box(baselineStyle(&canvas)), "baseline (hollow dots)")] : [])
            + (limits.isEmpty
                ? []
                : [
                    (.line(Self.budgetStyle(passed: true)), "budget met"), (.line(Self.budgetStyle(passed: false)), "budget failed"),
                ])
        canvas.height = canvas.legend(legend, x: 12, y: bottom + 32) + 6
        return canvas
    }

    func baselineStyle(_ canvas: inout SVGCanvas) -> ShapeStyle {
        ShapeStyle(fill: canvas.hatch("baseline", colour: "#b0b0b0", background: "#eeeeee"), stroke: ChartPalette.baseline)
    }

    static func budgetStyle(passed: Bool) -> ShapeStyle {
        ShapeStyle(
            stroke: passed ? ChartPalette.budgetPassed : ChartPalette.budget, strokeWidth: passed ? 1.5 : 2.5,
            dash: ChartPalette.budgetDash)
    }
}
