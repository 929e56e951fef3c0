/// Draws a `LaunchWaterfall` as a timeline in the manner of
/// `systemd-analyze plot`: one row per phase and per traced interval, names
/// in a column on the left, the duration beside each bar; the median run's
/// marks on top, each with a line down the chart; hover text with exact times.
package struct WaterfallChart: Sendable {
    package var waterfall: LaunchWaterfall
    package var id: String
    package var width: Double = 1160

    package init(waterfall: LaunchWaterfall, id: String) {
        self.waterfall = waterfall
        self.id = id
    }

    package var title: String { "\(waterfall.result.label): launch timeline" }

    static let rowHeight = 18.0
    static let laneHeight = 15.0

    package func render() -> SVGCanvas {
        var canvas = SVGCanvas(width: width, height: 0, idPrefix: id)
        canvas.text(title, x: 12, y: 17, size: 13, bold: true)
        var y = 33.0
        for note in [waterfall.runDescription] + waterfall.traceNotes {
            canvas.text(TextMeasure.fitted(note, width: width - 24), x: 12, y: y, colour: ChartPalette.mutedInk, title: note)
            y += 14
        }
        guard waterfall.run != nil || !waterfall.lanes.isEmpty else {
            canvas.text(waterfall.result.failureSummary ?? "nothing was measured", x: 12, y: y + 6, colour: ChartPalette.regressed)
            canvas.height = y + 20
            return canvas
        }
        let rows = WaterfallRows(waterfall: waterfall)
        let labelWidth = min(340, max(150, rows.widestLabel + 20))
        let scale = LinearScale(upTo: waterfall.end, unit: .nanoseconds, range: (12 + labelWidth)...(width - 16))
        var layout = WaterfallLayout(canvas: canvas, scale: scale, labelWidth: labelWidth, waterfall: waterfall)
        layout.draw(rows: rows.rows, top: y)
        canvas = layout.finish()
        return canvas
    }
}

/// The rows of a waterfall, top to bottom.
struct WaterfallRows {
    enum Row {
        case section(String)
        case bar(LaunchWaterfall.Bar)
        case thread(LaunchWaterfall.Lane)
    }

    var rows: [Row] = []

    init(waterfall: LaunchWaterfall) {
        if !waterfall.phases.isEmpty {
            rows.append(.section("median run"))
            rows += waterfall.phases.map(Row.bar)
        }
        if !waterfall.lanes.isEmpty { rows.append(.section("traced launch, by thread")) }
        for lane in waterfall.lanes {
            rows.append(.thread(lane))
            rows += lane.bars.map(Row.bar)
        }
    }

    var widestLabel: Double {
        rows.map { row in
            switch row {
            case .section(let text): TextMeasure.width(text, bold: true)
            case .bar(let bar): Double(min(bar.depth, 5)) * 12 + TextMeasure.width(bar.label)
            case .thread(let lane): TextMeasure.width(lane.title, bold: true)
            }
        }.max() ?? 0
    }
}
