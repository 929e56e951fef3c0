import Foundation
import LaunchEngine
import LaunchSupport

/// One target's median time to ready over runs (oldest left), a line and a
/// marker shape per machine, the median's 95% confidence interval as
/// whiskers, a failed budget as a ring and a regression as ▲ over its
/// point, each machine's change points (`EDivisiveMeans`, as `launchprof
/// history` finds them) as dashed lines; the latest run's median-of-time-to-ready budget limits as dashed
/// lines. Each column is one commit (or, where CI named none, one results
/// file), labelled with the commit (or the date); hovering a point tells
/// its run in full.
package struct FleetChart: Sendable {
    package var target: String
    package var mode: LaunchMode
    package var points: [FleetHistory.Point]
    /// Every machine of the history, so that colours and shapes are the same in every chart.
    package var machines: [String]
    package var id: String
    package var width: Double = 1160

    package init(target: String, mode: LaunchMode, points: [FleetHistory.Point], machines: [String], id: String) {
        self.target = target
        self.mode = mode
        self.points = points
        self.machines = machines
        self.id = id
    }

    package var title: String { "\(target) (\(mode.rawValue)): median time to ready over runs" }

    /// Okabe–Ito colours, then the same again with other shapes.
    static let colours = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442"]

    enum Shape: CaseIterable {
        case circle, square, diamond, triangleDown
    }

    func style(of machine: String) -> (colour: String, shape: Shape) {
        let index = machines.firstIndex(of: machine) ?? 0
        return (Self.colours[index % Self.colours.count], Shape.allCases[(index / Self.colours.count + index) % Shape.allCases.count])
    }

    package func render() -> SVGCanvas {
        var canvas = SVGCanvas(width: width, height: 0, idPrefix: id)
        canvas.text(title, x: 12, y: 17, size: 13, bold: true)
        guard !points.isEmpty else {
            canvas.text("No run of this target has a successful launch.", x: 12, y: 40, size: 11, colour: ChartPalette.mutedInk)
            canvas.height = 52
            return canvas
        }
        // Columns: one per commit (one per results file where CI named no
        // commit), in the order of their first run.
        var columns: [String] = []
        for point in points where !columns.contains(Self.column(point.entry)) { columns.append(Self.column(point.entry)) }
        let limits = latestLimits()
        let highest = (points.map(\.high) + limits.map(\.value)).filter(\.isFinite).max() ?? 1
        let left = 72.0, right = width - 16, top = 34.0, plotHeight = 260.0
        let bottom = top + plotHeight
        let scale = LinearScale(upTo: highest * 1.05, unit: .nanoseconds, range: 0...plotHeight, tickCount: 6)
        func y(_ value: Double) -> Double { bottom - scale(value) }
        let step = (right - left) / Double(max(columns.count, 1))
        func x(_ entry: FleetHistory.Entry) -> Double { left + step * (Double(columns.firstIndex(of: Self.column(entry)) ?? 0) + 0.5) }

        // The value axis, with horizontal grid lines.
        for (tick, label) in zip(scale.ticks, scale.tickLabels) {
            canvas.line(x1: left, y1: y(tick), x2: right, y2: y(tick), style: ShapeStyle(stroke: ChartPalette.grid))
            canvas.text(label, x: left - 6, y: y(tick) + 3.5, size: 10, anchor: .end, colour: ChartPalette.mutedInk)
        }
        // Budget limits of the latest run.
        for limit in limits {
            let style = ShapeStyle(stroke: ChartPalette.budget, strokeWidth: 1.2, dash: "6 4")
            canvas.line(x1: left, y1: y(limit.value), x2: right, y2: y(limit.value), style: style, title: limit.message)
            canvas.text(
                "budget \(HumanUnits.duration(limit.value))", x: right - 2, y: y(limit.value) - 4, size: 10, anchor: .end,
                colour: ChartPalette.budget, title: limit.message)
        }
        // Column labels: commits (or dates), thinned to what fits.
        let labelEvery = max(1, Int((58 / step).rounded(.up)))
        for (index, column) in columns.enumerated() where index % labelEvery == 0 || index == columns.count - 1 {
            guard let entry = points.first(where: { Self.column($0.entry) == column })?.entry else { continue }
            canvas.text(
                Self.columnLabel(entry), x: x(entry), y: bottom + 14, size: 10, anchor: .middle, colour: ChartPalette.mutedInk,
                title: Self.describe(entry))
        }
        canvas.line(x1: left, y1: bottom, x2: right, y2: bottom, style: ShapeStyle(stroke: ChartPalette.ink))

        // A line per machine, then whiskers and markers.
        for machine in machines {
            let own = points.filter { $0.entry.machine == machine }
            guard own.count > 1 else { continue }
            let colour = style(of: machine).colour
            for (from, to) in zip(own, own.dropFirst()) {
                canvas.line(
                    x1: x(from.entry), y1: y(from.median), x2: x(to.entry), y2: y(to.median),
                    style: ShapeStyle(stroke: colour, strokeWidth: 1.5, opacity: 0.7))
            }
        }
        // Change points of each machine's series (as `launchprof history`
        // finds them): a dashed line between the last run before and the
        // first after, in the machine's colour.
        for machine in machines {
            let own = points.filter { $0.entry.machine == machine }
            for change in EDivisiveMeans().changePoints(in: own.map(\.median)) {
                let before = own[change.index - 1], after = own[change.index]
                let cx = (x(before.entry) + x(after.entry)) / 2
                let title = Self.changeText(change, after: after, machine: machine)
                canvas.line(
                    x1: cx, y1: top, x2: cx, y2: bottom,
                    style: ShapeStyle(stroke: style(of: machine).colour, strokeWidth: 1.5, dash: "2 3"), title: title)
                canvas.text(
                    change.relativeChange > 0 ? "▲ change" : "▼ change", x: cx + 3, y: top + 10, size: 10,
                    colour: style(of: machine).colour, title: title)
            }
        }
        // Machines sharing a column are spread a little so each stays visible.
        let spread = min(8, step / Double(max(machines.count, 1) + 1))
        for point in points {
            let (colour, shape) = style(of: point.entry.machine)
            let offset = (Double(machines.firstIndex(of: point.entry.machine) ?? 0) - Double(machines.count - 1) / 2) * spread
            let px = x(point.entry) + offset, py = y(point.median)
            let title = Self.hoverText(point)
            let whisker = ShapeStyle(stroke: colour, strokeWidth: 1.2)
            canvas.line(x1: px, y1: y(point.low), x2: px, y2: y(point.high), style: whisker, title: title)
            for end in [point.low, point.high] { canvas.line(x1: px - 3, y1: y(end), x2: px + 3, y2: y(end), style: whisker) }
            if !point.failedBudgets.isEmpty {
                canvas.circle(x: px, y: py, radius: 8, style: ShapeStyle(stroke: ChartPalette.budget, strokeWidth: 2), title: title)
            }
            Self.marker(
                shape, x: px, y: py, canvas: &canvas, style: ShapeStyle(fill: colour, stroke: "#ffffff", strokeWidth: 0.8), title: title)
            if !point.regressions.isEmpty {
                let apex = py - 12
                canvas.polygon(
                    [(px, apex - 6), (px + 5, apex + 2), (px - 5, apex + 2)],
                    style: ShapeStyle(fill: ChartPalette.regressed, stroke: ChartPalette.ink, strokeWidth: 0.6), title: title)
            }
        }

        var legend: [(swatch: LegendSwatch, name: String)] = machines.map { machine in
            (.line(ShapeStyle(stroke: style(of: machine).colour, strokeWidth: 3)), machine)
        }
        legend += [
            (.line(ShapeStyle(stroke: ChartPalette.ink, strokeWidth: 1.2)), "95% CI of the median"),
            (.box(ShapeStyle(stroke: ChartPalette.budget, strokeWidth: 2)), "ring: a budget failed"),
            (.box(ShapeStyle(fill: ChartPalette.regressed)), "▲ regressed against its baseline"),
            (.line(ShapeStyle(stroke: ChartPalette.ink, dash: "2 3")), "change point (launchprof history)"),
        ]
        if !limits.isEmpty { legend.append((.line(ShapeStyle(stroke: ChartPalette.budget, dash: "6 4")), "budget limit (latest run)")) }
        canvas.height = canvas.legend(legend, x: 12, y: bottom + 36) + 6
        return canvas
    }

    /// A change point's hover text: where, by how much, how sure.
    static func changeText(_ change: EDivisiveMeans.ChangePoint, after: FleetHistory.Point, machine: String) -> String {
        let sign = change.relativeChange >= 0 ? "+" : "−"
        return "change point on \(machine): \(sign)\(HumanUnits.percent(abs(change.relativeChange))) from "
            + "\(describe(after.entry)), median \(HumanUnits.duration(change.medianBefore)) → "
            + "\(HumanUnits.duration(change.medianAfter)), p \(String(format: "%.1e", change.test.pValue))"
    }

    /// The latest run's absolute time-to-ready limits on the median.
    func latestLimits() -> [(value: Double, message: String)] {
        guard let latest = points.last else { return [] }
        return (latest.entry.document.budgets ?? []).compactMap { budget in
            guard budget.target == target, budget.mode == mode, budget.metric == Metric.wallToReady.key,
                budget.statistic == .p50, budget.reference == nil, let value = budget.limitValue
            else { return nil }
            return (value, budget.message)
        }
    }

    static func marker(_ shape: Shape, x: Double, y: Double, canvas: inout SVGCanvas, style: ShapeStyle, title: String) {
        switch shape {
        case .circle: canvas.circle(x: x, y: y, radius: 4.5, style: style, title: title)
        case .square: canvas.rect(x: x - 4, y: y - 4, width: 8, height: 8, style: style, title: title)
        case .diamond: canvas.polygon(SVGCanvas.diamond(x: x, y: y, size: 5.5), style: style, title: title)
        case .triangleDown: canvas.polygon([(x - 5, y - 4), (x + 5, y - 4), (x, y + 5)], style: style, title: title)
        }
    }

    /// The column a run is drawn in: its commit's, else its own.
    static func column(_ entry: FleetHistory.Entry) -> String {
        entry.commit.map { "commit " + $0 } ?? "file " + entry.source
    }

    /// A column's label: the commit's first 7 characters, else the date.
    static func columnLabel(_ entry: FleetHistory.Entry) -> String {
        if let commit = entry.commit { return String(commit.prefix(7)) }
        let date = entry.document.date
        // 2026-11-25T02:05:23Z → 11-25 02:05
        guard date.count >= 16 else { return date }
        let characters = Array(date)
        return String(characters[5..<10]) + " " + String(characters[11..<16])
    }

    /// A run told in a line: commit, branch, machine, date.
    static func describe(_ entry: FleetHistory.Entry) -> String {
        var parts: [String] = []
        if let commit = entry.commit { parts.append("commit \(commit)") }
        if let branch = entry.branch { parts.append("branch \(branch)") }
        parts.append("on \(entry.machine)")
        parts.append(entry.document.date)
        return parts.joined(separator: ", ")
    }

    /// Everything about one point.
    static func hoverText(_ point: FleetHistory.Point) -> String {
        var text = describe(point.entry)
        text +=
            ": median \(HumanUnits.duration(point.median)) (95% CI \(HumanUnits.duration(point.low)) … "
            + "\(HumanUnits.duration(point.high))), \(point.result.runs.count) runs"
        for budget in point.failedBudgets { text += "; budget failed: \(budget.message)" }
        for change in point.regressions {
            text += "; regressed: \(change.metric) \(MetricChange.percent(change.change))"
        }
        return text + " [\(point.entry.source)]"
    }
}
