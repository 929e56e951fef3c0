import LaunchSupport

/// Lays out and draws a waterfall's marks, rows, axis and legend on a canvas.
struct WaterfallLayout {
    var canvas: SVGCanvas
    let scale: LinearScale
    let labelWidth: Double
    let waterfall: LaunchWaterfall
    private var kindsDrawn: [LaunchWaterfall.BarKind] = []
    private var drewEvents = false

    init(canvas: SVGCanvas, scale: LinearScale, labelWidth: Double, waterfall: LaunchWaterfall) {
        self.canvas = canvas
        self.scale = scale
        self.labelWidth = labelWidth
        self.waterfall = waterfall
    }

    private var plotBounds: ClosedRange<Double> { scale.range }

    /// Marker and label beside a moment: a marker 4 px either side of the
    /// moment, the text after it; two labels in one lane keep 14 px apart.
    private func placeLabels(_ items: [(time: Double, text: String, bold: Bool)]) -> [LabelPlacer.Placement] {
        var placer = LabelPlacer(bounds: plotBounds)
        placer.offset = 7
        placer.gap = 14
        return placer.place(items.map { .init(anchor: scale($0.time), width: TextMeasure.width($0.text, size: 10, bold: $0.bold)) })
    }

    mutating func draw(rows: [WaterfallRows.Row], top: Double) {
        let marks = waterfall.marks.map { (time: $0.time, text: markText($0), bold: $0.kind == .ready) }
        let markPlacements = placeLabels(marks)
        let markLanes = (markPlacements.map(\.lane).max() ?? -1) + 1
        let plotTop = top + Double(markLanes) * WaterfallChart.laneHeight + 6
        var eventPlacements: [[LabelPlacer.Placement]] = []
        var plotBottom = plotTop
        for row in rows {
            if case .thread(let lane) = row {
                let placements = placeLabels(lane.points.map { (time: $0.time, text: $0.name, bold: false) })
                eventPlacements.append(placements)
                plotBottom += WaterfallChart.rowHeight + Double(max(0, (placements.map(\.lane).max() ?? 0))) * WaterfallChart.laneHeight
            } else {
                plotBottom += WaterfallChart.rowHeight
            }
        }
        canvas.timeAxis(scale, top: plotTop, bottom: plotBottom)
        // The median run's marks reach down through its own rows only: the
        // traced launch below has its own times, shown as its own marks.
        let medianRunBottom = plotTop + Double(1 + waterfall.phases.count) * WaterfallChart.rowHeight
        for (mark, placement) in zip(waterfall.marks, markPlacements) {
            let baseline = plotTop - 6 - Double(placement.lane) * WaterfallChart.laneHeight
            drawMark(mark, placement: placement, baseline: baseline, bottom: waterfall.phases.isEmpty ? plotBottom : medianRunBottom)
        }
        var y = plotTop
        var threadIndex = 0
        for row in rows {
            switch row {
            case .section(let text):
                canvas.rect(
                    x: 8, y: y + 1, width: canvas.width - 16, height: WaterfallChart.rowHeight - 2,
                    style: ShapeStyle(fill: ChartPalette.band, opacity: 0.8))
                canvas.text(text, x: 12, y: y + 13, bold: true)
                y += WaterfallChart.rowHeight
            case .bar(let bar):
                drawBar(bar, y: y)
                y += WaterfallChart.rowHeight
            case .thread(let lane):
                let placements = eventPlacements[threadIndex]
                threadIndex += 1
                y = drawThread(lane, placements: placements, y: y)
            }
        }
        canvas.height = legend(y: plotBottom + 30) + 6
    }

    // MARK: - Marks

    private func markText(_ mark: LaunchWaterfall.Mark) -> String {
        mark.kind == .spawn ? mark.name : "\(mark.name) \(HumanUnits.duration(mark.time))"
    }

    private mutating func drawMark(_ mark: LaunchWaterfall.Mark, placement: LabelPlacer.Placement, baseline: Double, bottom: Double) {
        let x = scale(mark.time)
        let colour = mark.kind == .ready ? ChartPalette.toReady : ChartPalette.ink
        let title =
            "\(waterfall.result.label), \(mark.name): \(ReportNumber.milliseconds(mark.time)) after spawn "
            + "(\(waterfall.runDescription))"
        let solid = mark.kind == .ready || mark.kind == .exit || mark.kind == .spawn
        canvas.line(
            x1: x, y1: baseline - 4, x2: x, y2: bottom,
            style: ShapeStyle(
                stroke: colour, strokeWidth: mark.kind == .ready ? 1.5 : 1, dash: solid ? nil : ChartPalette.markDash,
                opacity: 0.55))
        canvas.polygon(SVGCanvas.diamond(x: x, y: baseline - 4, size: 4), style: ShapeStyle(fill: colour), title: title)
        let flipped = placement.start < x
        canvas.text(
            markText(mark), x: flipped ? placement.end : placement.start, y: baseline, size: 10, anchor: flipped ? .end : .start,
            bold: mark.kind == .ready, colour: colour, background: true, title: title)
    }

    // MARK: - Rows

    private mutating func drawBar(_ bar: LaunchWaterfall.Bar, y: Double) {
        if !kindsDrawn.contains(bar.kind) { kindsDrawn.append(bar.kind) }
        let indent = Double(min(bar.depth, 5)) * 12
        let text = TextMeasure.fitted(bar.label, width: labelWidth - indent - 12)
        // Phases are the median run's (name the result); intervals are the trace's.
        let isPhase = [.preMain, .beforeMain, .toReady, .afterReady].contains(bar.kind)
        let ms = ReportNumber.milliseconds
        var title =
            (isPhase ? "\(waterfall.result.label), " : "") + "\(bar.label): \(ms(bar.duration)), from \(ms(bar.start)) "
            + "to \(ms(bar.end)) after spawn"
        if let note = bar.note { title += " (\(note))" }
        canvas.text(text, x: 12 + indent, y: y + 13, title: title)
        let start = scale(bar.start)
        let width = max(1.5, scale(bar.end) - start)
        canvas.rect(x: start, y: y + 3, width: width, height: WaterfallChart.rowHeight - 6, style: style(of: bar.kind), title: title)
        let duration = HumanUnits.duration(bar.duration)
        let textWidth = TextMeasure.width(duration, size: 10)
        // Right of the bar; else inside its end (on a white box, legible on
        // any fill); else left of it.
        if start + width + 4 + textWidth <= plotBounds.upperBound {
            canvas.text(duration, x: start + width + 4, y: y + 13, size: 10, colour: ChartPalette.mutedInk, background: true)
        } else if width >= textWidth + 8 || start - 4 - textWidth < plotBounds.lowerBound {
            canvas.text(duration, x: start + width - 4, y: y + 13, size: 10, anchor: .end, colour: ChartPalette.ink, background: true)
        } else {
            canvas.text(duration, x: start - 4, y: y + 13, size: 10, anchor: .end, colour: ChartPalette.mutedInk, background: true)
        }
    }

    private mutating func drawThread(_ lane: LaunchWaterfall.Lane, placements: [LabelPlacer.Placement], y: Double) -> Double {
        canvas.text(TextMeasure.fitted(lane.title, width: labelWidth - 12, bold: true), x: 12, y: y + 13, bold: true, title: lane.title)
        for (point, placement) in zip(lane.points, placements) {
            drewEvents = true
            let x = scale(point.time)
            let baseline = y + 13 + Double(placement.lane) * WaterfallChart.laneHeight
            var title = "\(point.isMilestone ? "milestone" : "event") \(point.name): \(ReportNumber.milliseconds(point.time)) after spawn"
            if let note = point.note { title += " (\(note))" }
            canvas.polygon(
                SVGCanvas.diamond(x: x, y: baseline - 4, size: 3.5),
                style: ShapeStyle(fill: point.isMilestone ? ChartPalette.mutedInk : ChartPalette.event), title: title)
            let flipped = placement.start < x
            canvas.text(
                point.name, x: flipped ? placement.end : placement.start, y: baseline, size: 10, anchor: flipped ? .end : .start,
                colour: ChartPalette.mutedInk, background: true, title: title)
        }
        let lanes = (placements.map(\.lane).max() ?? 0)
        return y + WaterfallChart.rowHeight + Double(lanes) * WaterfallChart.laneHeight
    }

    private mutating func style(of kind: LaunchWaterfall.BarKind) -> ShapeStyle {
        switch kind {
        case .preMain: ShapeStyle(fill: ChartPalette.preMain)
        case .beforeMain: ShapeStyle(fill: ChartPalette.beforeMain)
        case .toReady: ShapeStyle(fill: ChartPalette.toReady)
        case .afterReady: ShapeStyle(fill: ChartPalette.afterReady)
        case .slice: ShapeStyle(fill: ChartPalette.slice)
        case .asyncInterval: ShapeStyle(fill: ChartPalette.asyncInterval, stroke: ChartPalette.ink, dash: "2 2")
        case .deferred:
            ShapeStyle(fill: canvas.hatch("deferred", colour: ChartPalette.deferred, background: "#fbe3b3"), stroke: ChartPalette.deferred)
        case .prewarm:
            ShapeStyle(fill: canvas.hatch("prewarm", colour: ChartPalette.prewarm, background: "#e2d9ee"), stroke: ChartPalette.prewarm)
        }
    }

    // MARK: - Legend

    private mutating func legend(y: Double) -> Double {
        let names: [(LaunchWaterfall.BarKind, String)] = [
            (.preMain, "spawn → process entry (exec, loading)"), (.beforeMain, "process entry → main"),
            (.toReady, "to ready"), (.afterReady, "ready → exit"), (.slice, "traced interval"),
            (.asyncInterval, "interval across threads"), (.deferred, "deferred task"), (.prewarm, "prewarm task"),
        ]
        var entries: [(swatch: LegendSwatch, name: String)] = names.filter { kindsDrawn.contains($0.0) }.map { kind, name in
            (.box(style(of: kind)), name)
        }
        entries.append((.diamond(ChartPalette.ink), "median run milestone"))
        if waterfall.marks.contains(where: { $0.kind == .ready }) { entries.append((.diamond(ChartPalette.toReady), "ready")) }
        if drewEvents { entries.append((.diamond(ChartPalette.mutedInk), "event or milestone in the trace")) }
        return canvas.legend(entries, x: 12, y: y)
    }

    func finish() -> SVGCanvas { canvas }
}
