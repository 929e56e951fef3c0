import LaunchEngine
import LaunchSupport

/// Baseline against current, phase by phase: two bars on one time axis,
/// each the launch's phases (spawn → process entry → main → each milestone
/// → ready) end to end at their medians, the phases that changed beyond
/// noise outlined in the regression colour, every segment's hover text its
/// medians and change.
package struct PhaseWaterfallChart: Sendable {
    package var attribution: LaunchAttribution
    package var id: String
    package var width: Double = 1160

    package init(attribution: LaunchAttribution, id: String) {
        self.attribution = attribution
        self.id = id
    }

    package var title: String { "\(attribution.target) (\(attribution.mode.rawValue)): phases, baseline against now" }

    static let colours = ["#56B4E9", "#9ecae1", "#0072B2", "#009E73", "#E69F00", "#CC79A7", "#7b5ea7", "#D55E00"]

    package func render() -> SVGCanvas {
        var canvas = SVGCanvas(width: width, height: 0, idPrefix: id)
        canvas.text(title, x: 12, y: 17, size: 13, bold: true)
        let phases = attribution.phases
        let labelWidth = 90.0
        let scale = LinearScale(
            upTo: max(phases.reduce(0) { $0 + $1.baseline }, phases.reduce(0) { $0 + $1.current }, 1), unit: .nanoseconds,
            range: (12 + labelWidth)...(width - 16), tickCount: 8)
        let top = 34.0, barHeight = 26.0
        let axisTop = top + 2 * (barHeight + 10) - 4
        canvas.timeAxis(scale, top: top - 4, bottom: axisTop)  // under the bars
        for (row, (label, value)) in [("baseline", \LaunchAttribution.Part.baseline), ("now", \LaunchAttribution.Part.current)].enumerated()
        {
            let y = top + Double(row) * (barHeight + 10)
            canvas.text(label, x: 12, y: y + 17, size: 11, bold: row == 1)
            var start = 0.0
            for (index, phase) in phases.enumerated() {
                let length = phase[keyPath: value]
                let x0 = scale(start), x1 = scale(start + length)
                let changed = phase.isContributor && row == 1
                let style = ShapeStyle(
                    fill: Self.colours[index % Self.colours.count], stroke: changed ? ChartPalette.regressed : "#ffffff",
                    strokeWidth: changed ? 2.5 : 0.8)
                let tip =
                    "\(phase.name): baseline \(HumanUnits.duration(phase.baseline)), now \(HumanUnits.duration(phase.current)) "
                    + "(\(LaunchAttribution.signed(phase.change)), p \(LaunchAttribution.pText(phase.pValue)))"
                canvas.rect(x: x0, y: y, width: max(0.5, x1 - x0), height: barHeight, style: style, title: tip)
                if x1 - x0 > 60 {
                    canvas.text(TextMeasure.fitted(phase.name, width: x1 - x0 - 6, size: 10), x: x0 + 3, y: y + 16, size: 10, title: tip)
                }
                start += length
            }
        }
        let legend: [(swatch: LegendSwatch, name: String)] = [
            (.box(ShapeStyle(fill: "#ffffff", stroke: ChartPalette.regressed, strokeWidth: 2.5)), "changed beyond noise (a contributor)")
        ]
        canvas.height = canvas.legend(legend, x: 12, y: axisTop + 32) + 6
        return canvas
    }
}
