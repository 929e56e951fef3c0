import Foundation
import LaunchEngine
import LaunchSupport

/// Baseline against current: one row per compared metric with the relative
/// change of its statistic as a bar from zero, the bootstrap confidence
/// interval as whiskers, and the verdict told three ways: colour, marker
/// shape (▲ regressed, ▼ improved, ● unchanged) and word, so it reads in
/// greyscale too.
package struct ChangeChart: Sendable {
    package var changes: [MetricChange]
    package var id: String
    package var width: Double = 1160

    package init(changes: [MetricChange], id: String = "changes") {
        self.changes = changes
        self.id = id
    }

    package var title: String { "Change against the baseline" }

    static let rowHeight = 22.0

    package func render() -> SVGCanvas {
        var canvas = SVGCanvas(width: width, height: 0, idPrefix: id)
        canvas.text(title, x: 12, y: 17, size: 13, bold: true)
        let labels = changes.map(Self.label)
        let texts = changes.map(Self.valueText)
        let labelWidth = min(360, (labels.map { TextMeasure.width($0) }.max() ?? 0) + 16)
        let valueWidth = min(440, (texts.map { TextMeasure.width($0, size: 10.5, bold: true) }.max() ?? 0) + 16)
        let extremes = changes.flatMap { [$0.change, $0.changeLow, $0.changeHigh] }.filter(\.isFinite)
        // Zero always shows, and at least ±5% around it.
        let scale = LinearScale(
            upTo: Swift.max(0.05, extremes.max() ?? 0) * 100, from: Swift.min(-0.05, extremes.min() ?? 0) * 100, unit: .count,
            range: (12 + labelWidth)...(width - valueWidth - 12), tickCount: 8)
        let top = 30.0
        let bottom = top + Double(changes.count) * Self.rowHeight
        for (tick, label) in zip(scale.ticks, scale.tickLabels) {
            let style = ShapeStyle(stroke: tick == 0 ? ChartPalette.ink : ChartPalette.grid)
            canvas.line(x1: scale(tick), y1: top, x2: scale(tick), y2: bottom, style: style)
            let text = tick > 0 ? "+\(label)%" : label.replacingOccurrences(of: "-", with: "−") + "%"
            canvas.text(text, x: scale(tick), y: bottom + 13, size: 10, anchor: .middle, colour: ChartPalette.mutedInk)
        }
        for (index, change) in changes.enumerated() {
            drawRow(
                change, label: labels[index], text: texts[index], y: top + Double(index) * Self.rowHeight,
                scale: scale, labelWidth: labelWidth, valueX: width - valueWidth, canvas: &canvas)
        }
        let legend: [(swatch: LegendSwatch, name: String)] = [
            (.box(regressedStyle(&canvas)), "▲ regressed: worse by more than the threshold, and significant"),
            (.box(ShapeStyle(fill: ChartPalette.improved, opacity: 0.35)), "▼ improved"),
            (.box(ShapeStyle(fill: ChartPalette.unchanged, opacity: 0.35)), "● unchanged"),
            (.line(ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1.5)), "confidence interval of the change"),
        ]
        canvas.height = canvas.legend(legend, x: 12, y: bottom + 32) + 6
        return canvas
    }

    private func drawRow(
        _ change: MetricChange, label: String, text: String, y: Double, scale: LinearScale, labelWidth: Double,
        valueX: Double, canvas: inout SVGCanvas
    ) {
        let title = "\(label): \(Self.hoverText(change))"
        let middle = y + Self.rowHeight / 2
        canvas.text(TextMeasure.fitted(label, width: labelWidth - 12), x: 12, y: y + 15, title: title)
        let zero = scale(0)
        let x = scale(Self.clamped(change.change, scale) * 100)
        let bar = change.verdict == .regressed ? regressedStyle(&canvas) : ShapeStyle(fill: Self.colour(of: change.verdict), opacity: 0.35)
        canvas.rect(x: min(zero, x), y: y + 6, width: max(1, abs(x - zero)), height: Self.rowHeight - 12, style: bar, title: title)
        let whisker = ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1.5)
        let low = scale(Self.clamped(change.changeLow, scale) * 100)
        let high = scale(Self.clamped(change.changeHigh, scale) * 100)
        canvas.line(x1: low, y1: middle, x2: high, y2: middle, style: whisker, title: title)
        for end in [low, high] { canvas.line(x1: end, y1: y + 6, x2: end, y2: y + Self.rowHeight - 6, style: whisker) }
        let marker = ShapeStyle(fill: Self.colour(of: change.verdict), stroke: ChartPalette.ink, strokeWidth: 0.8)
        canvas.polygon(Self.marker(change.verdict, x: x, y: middle), style: marker, title: title)
        let regressed = change.verdict == .regressed
        canvas.text(
            text, x: valueX, y: y + 15, size: 10.5, bold: regressed,
            colour: regressed ? ChartPalette.regressed : ChartPalette.ink, title: title)
    }

    private func regressedStyle(_ canvas: inout SVGCanvas) -> ShapeStyle {
        ShapeStyle(fill: canvas.hatch("regressed", colour: ChartPalette.regressed, background: "#f6d2bd"), stroke: ChartPalette.regressed)
    }

    /// An infinite change (a baseline of zero) drawn at the edge.
    private static func clamped(_ value: Double, _ scale: LinearScale) -> Double {
        value.isFinite ? value : (value > 0 ? scale.domain.upperBound : scale.domain.lowerBound) / 100
    }

    /// "sample-app (warm), time to ready median".
    static func label(_ change: MetricChange) -> String {
        let metric = Metric(key: change.metric)?.displayName ?? change.metric
        return "\(change.target) (\(change.mode.rawValue)), \(metric) \(statisticName(change.statistic))"
    }

    static func statisticName(_ statistic: SummaryStatistic) -> String { statistic == .p50 ? "median" : statistic.rawValue }

    /// "14.2 ms → 15.9 ms, +12.0% [+8.1%, +16.0%], p = 0.0030, ▲ regressed".
    static func valueText(_ change: MetricChange) -> String {
        let values = "\(HumanUnits.format(change.baseline, unit: change.unit)) → \(HumanUnits.format(change.current, unit: change.unit))"
        return "\(values), \(change.changeText), \(change.pValueText), \(verdictText(change.verdict))"
    }

    static func hoverText(_ change: MetricChange) -> String {
        "\(ReportNumber.exact(change.baseline, unit: change.unit)) in the baseline (\(change.baselineRuns) runs), "
            + "\(ReportNumber.exact(change.current, unit: change.unit)) now (\(change.currentRuns) runs), "
            + "\(MetricChange.percent(change.change)) (\(HumanUnits.percent(change.confidence)) CI "
            + "\(MetricChange.percent(change.changeLow)) to \(MetricChange.percent(change.changeHigh))), "
            + "Mann–Whitney \(change.pValueText); threshold \(HumanUnits.percent(change.threshold)) at significance "
            + "\(change.significance): \(verdictText(change.verdict))"
    }

    static func verdictText(_ verdict: MetricChange.Verdict) -> String {
        switch verdict {
        case .regressed: "▲ regressed"
        case .improved: "▼ improved"
        case .unchanged: "● unchanged"
        }
    }

    static func colour(of verdict: MetricChange.Verdict) -> String {
        switch verdict {
        case .regressed: ChartPalette.regressed
        case .improved: ChartPalette.improved
        case .unchanged: ChartPalette.unchanged
        }
    }

    static func marker(_ verdict: MetricChange.Verdict, x: Double, y: Double) -> [(x: Double, y: Double)] {
        switch verdict {
        case .regressed: [(x, y - 6), (x + 6, y + 4), (x - 6, y + 4)]
        case .improved: [(x - 6, y - 4), (x + 6, y - 4), (x, y + 6)]
        case .unchanged:
            (0..<8).map { step in
                let angle = Double(step) * .pi / 4
                return (x + 4.5 * cos(angle), y + 4.5 * sin(angle))
            }
        }
    }
}
