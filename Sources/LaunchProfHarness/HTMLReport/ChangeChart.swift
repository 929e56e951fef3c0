import Foundation

/// Baseline against current: one row per compared metric with the relative
/// change as a bar from zero, its confidence interval as whiskers, and the
/// verdict told three ways: colour, marker shape (▲ regressed, ▼ improved,
/// ● unchanged, ◆ not tested) and word, so it reads in greyscale too.
package struct ChangeChart: Sendable {
    package var rows: [ChangeRow]
    package var id: String
    package var width: Double = 1160

    package init(rows: [ChangeRow], id: String = "changes") {
        self.rows = rows
        self.id = id
    }

    package var title: String { "Change against the baseline" }

    static let rowHeight = 22.0

    package func render() -> SVGCanvas {
        var canvas = SVGCanvas(width: width, height: 0, idPrefix: id)
        canvas.text(title, x: 12, y: 17, size: 13, bold: true)
        let labels = rows.map { "\($0.target) (\($0.mode.rawValue)), \($0.metric.displayName)" }
        let texts = rows.map(valueText)
        let labelWidth = min(330, (labels.map { TextMeasure.width($0) }.max() ?? 0) + 16)
        let valueWidth = min(420, (texts.map { TextMeasure.width($0, size: 10.5) }.max() ?? 0) + 16)
        let extremes: [Double] = rows.flatMap { row -> [Double] in
            [row.relativeChange, row.interval?.lowerBound ?? 0, row.interval?.upperBound ?? 0]
        }
        let reach = Swift.max(0.05, extremes.map { Swift.abs($0) }.max() ?? 0) * 100
        let scale = LinearScale(upTo: reach, from: -reach, unit: .count, range: (12 + labelWidth)...(width - valueWidth - 12), tickCount: 8)
        let top = 30.0
        let bottom = top + Double(rows.count) * Self.rowHeight
        for (tick, label) in zip(scale.ticks, scale.tickLabels) {
            canvas.line(x1: scale(tick), y1: top, x2: scale(tick), y2: bottom, style: ShapeStyle(stroke: tick == 0 ? ChartPalette.ink : ChartPalette.grid))
            canvas.text(tick > 0 ? "+\(label)%" : "\(label.replacingOccurrences(of: "-", with: "−"))%", x: scale(tick), y: bottom + 13, size: 10, anchor: .middle, colour: ChartPalette.mutedInk)
        }
        for (index, row) in rows.enumerated() {
            let y = top + Double(index) * Self.rowHeight
            let title = "\(labels[index]): \(hoverText(row))"
            canvas.text(TextMeasure.fitted(labels[index], width: labelWidth - 12), x: 12, y: y + 15, title: title)
            let colour = Self.colour(of: row.verdict)
            let zero = scale(0)
            let x = scale(row.relativeChange * 100)
            let barStyle = row.verdict == .regressed
                ? ShapeStyle(fill: canvas.hatch("regressed", colour: ChartPalette.regressed, background: "#f6d2bd"), stroke: colour)
                : ShapeStyle(fill: colour, opacity: 0.35)
            canvas.rect(x: min(zero, x), y: y + 6, width: max(1, abs(x - zero)), height: Self.rowHeight - 12, style: barStyle, title: title)
            if let interval = row.interval {
                let low = scale(interval.lowerBound * 100)
                let high = scale(interval.upperBound * 100)
                canvas.line(x1: low, y1: y + Self.rowHeight / 2, x2: high, y2: y + Self.rowHeight / 2, style: ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1.5), title: title)
                for end in [low, high] {
                    canvas.line(x1: end, y1: y + 6, x2: end, y2: y + Self.rowHeight - 6, style: ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1.5))
                }
            }
            canvas.polygon(Self.marker(row.verdict, x: x, y: y + Self.rowHeight / 2), style: ShapeStyle(fill: colour, stroke: ChartPalette.ink, strokeWidth: 0.8), title: title)
            canvas.text(texts[index], x: width - valueWidth, y: y + 15, size: 10.5, bold: row.verdict == .regressed, colour: row.verdict == .regressed ? ChartPalette.regressed : ChartPalette.ink, title: title)
        }
        let legend: [(swatch: LegendSwatch, name: String)] = [
            (.box(ShapeStyle(fill: canvas.hatch("regressed", colour: ChartPalette.regressed, background: "#f6d2bd"), stroke: ChartPalette.regressed)), "▲ regressed"),
            (.box(ShapeStyle(fill: ChartPalette.improved, opacity: 0.35)), "▼ improved"),
            (.box(ShapeStyle(fill: ChartPalette.unchanged, opacity: 0.35)), "● unchanged"),
            (.box(ShapeStyle(fill: ChartPalette.ink, opacity: 0.35)), "◆ not tested for significance"),
            (.line(ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1.5)), "confidence interval"),
        ]
        canvas.height = canvas.legend(legend, x: 12, y: bottom + 32) + 6
        return canvas
    }

    /// "14.2 ms → 15.9 ms, +12.0% [+8.1%, +16.0%], p = 0.003, ▲ regressed".
    func valueText(_ row: ChangeRow) -> String {
        var parts = [
            "\(HumanUnits.format(row.baseline, unit: row.metric.unit)) → \(HumanUnits.format(row.current, unit: row.metric.unit))",
            ReportNumber.change(row.relativeChange),
        ]
        if let interval = row.interval {
            parts.append("[\(ReportNumber.change(interval.lowerBound)), \(ReportNumber.change(interval.upperBound))]")
        }
        if let p = row.pValue { parts.append("p = \(Self.pValue(p))") }
        parts.append(Self.verdictText(row.verdict))
        return parts.joined(separator: ", ")
    }

    func hoverText(_ row: ChangeRow) -> String {
        var text = "\(row.statistic) \(ReportNumber.exact(row.baseline, unit: row.metric.unit)) in the baseline, "
            + "\(ReportNumber.exact(row.current, unit: row.metric.unit)) now, \(ReportNumber.change(row.relativeChange))"
        if let interval = row.interval {
            text += " (95% CI \(ReportNumber.change(interval.lowerBound)) to \(ReportNumber.change(interval.upperBound)))"
        }
        if let p = row.pValue { text += ", p = \(Self.pValue(p))" }
        return text + ", " + Self.verdictText(row.verdict)
    }

    static func pValue(_ p: Double) -> String { p < 0.001 ? "< 0.001" : HumanUnits.fixed(p, decimals: 3) }

    static func verdictText(_ verdict: ChangeRow.Verdict?) -> String {
        switch verdict {
        case .regressed: "▲ regressed"
        case .improved: "▼ improved"
        case .unchanged: "● unchanged"
        case nil: "◆ not tested"
        }
    }

    static func colour(of verdict: ChangeRow.Verdict?) -> String {
        switch verdict {
        case .regressed: ChartPalette.regressed
        case .improved: ChartPalette.improved
        case .unchanged: ChartPalette.unchanged
        case nil: ChartPalette.mutedInk
        }
    }

    static func marker(_ verdict: ChangeRow.Verdict?, x: Double, y: Double) -> [(x: Double, y: Double)] {
        switch verdict {
        case .regressed: [(x, y - 6), (x + 6, y + 4), (x - 6, y + 4)]
        case .improved: [(x - 6, y - 4), (x + 6, y - 4), (x, y + 6)]
        case .unchanged: (0..<8).map { step in
            let angle = Double(step) * .pi / 4
            return (x + 4.5 * cos(angle), y + 4.5 * sin(angle))
        }
        case nil: SVGCanvas.diamond(x: x, y: y, size: 5)
        }
    }
}
