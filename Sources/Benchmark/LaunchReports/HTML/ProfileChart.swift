import LaunchAnalysis
import LaunchEngine
import LaunchSupport

/// A target's launch profile as a flame graph inside the report: the root
/// at the bottom, each frame as wide as the samples under it, the same
/// per-module colours as the standalone flame graph (FlameGraphSVG), and
/// each frame's full name, module, source line, samples and share in its
/// hover title. Static: the report has no scripts, so the standalone SVG
/// (with its search) stays the one to explore.
package struct ProfileChart {
    package var target: String
    package var profile: SymbolizedProfile
    package var id: String
    package var width: Double = 1160
    /// Deeper frames are left out (and the chart says so): a runaway
    /// recursion must not make the page metres tall.
    package var maximumRows = 64

    static let rowHeight = 16.0
    static let top = 44.0
    /// Frames narrower than this are not drawn (their samples still count
    /// in their parents' widths).
    static let minimumWidth = 0.5

    package init(target: String, profile: SymbolizedProfile, id: String) {
        self.target = target
        self.profile = profile
        self.id = id
    }

    package var title: String { "\(target): where the launch's CPU time goes" }

    /// "N samples from K launches at R Hz (~1 ms of one thread's CPU each); hottest (self): …".
    var subtitle: String {
        let launches = profile.runCount == 1 ? "1 launch" : "\(profile.runCount) launches"
        let each = HumanUnits.duration(profile.nanosecondsPerWeight)
        let text = "\(profile.sampleCount) samples from \(launches) at \(profile.sampling.rate) Hz, each ≈ \(each) of one thread's CPU"
        return text + ProfileRecord.HotFrame.clause(ProfileRecord.HotFrame.hottest(in: profile, limit: 3))
    }

    /// "61.0%": one decimal, as the standalone flame graph gives it.
    static func share(_ weight: UInt64, of total: UInt64) -> String {
        HumanUnits.fixed(Double(weight) / Double(max(total, 1)) * 100, decimals: 1) + "%"
    }

    package func render() -> SVGCanvas {
        let root = FlameGraphSVG.tree(of: profile)
        let rows = min(root.depth, maximumRows)
        let legendTop = Self.top + Double(rows) * Self.rowHeight + 10
        var canvas = SVGCanvas(width: width, height: legendTop + 40, idPrefix: id)
        canvas.text(title, x: 8, y: 16, size: 13, bold: true)
        canvas.text(TextMeasure.fitted(subtitle, width: width - 16, size: 11), x: 8, y: 32, colour: ChartPalette.mutedInk, title: subtitle)
        guard root.weight > 0 else {
            canvas.text(
                "No samples: the sampled window (from the constructors to launch complete or exit) used less CPU than one tick of the timer.",
                x: 8, y: Self.top + 14, colour: ChartPalette.mutedInk)
            canvas.height = Self.top + 30
            return canvas
        }
        let scale = (width - 16) / Double(root.weight)
        var modules: Set<String> = []
        var cut = false
        func draw(_ node: FlameGraphSVG.Node, x: Double, level: Int) {
            let frameWidth = Double(node.weight) * scale
            guard frameWidth >= Self.minimumWidth else { return }
            guard level < rows else {
                cut = true
                return
            }
            let y = Self.top + Double(rows - 1 - level) * Self.rowHeight
            let share = Self.share(node.weight, of: root.weight)
            let name = node.frame?.name ?? "all"
            let hover = "\(node.frame.map(FlameGraphSVG.label) ?? "all threads, all launches") — \(node.weight) samples, \(share)"
            let fill = node.frame.map { FlameGraphSVG.color(module: $0.module, name: $0.name) } ?? ChartPalette.grid
            if let module = node.frame?.module, !module.isEmpty { modules.insert(module) }
            canvas.rect(
                x: 8 + x, y: y, width: frameWidth, height: Self.rowHeight - 1,
                style: ShapeStyle(fill: fill, stroke: "#ffffff", strokeWidth: 0.5), title: hover)
            // A label only where a few letters fit: rows of lone "…" say nothing.
            let label = frameWidth >= 28 ? TextMeasure.fitted(FunctionName.short(name), width: frameWidth - 6, size: 10) : ""
            if !label.isEmpty { canvas.text(label, x: 11 + x, y: y + 11.5, size: 10, title: hover) }
            var childX = x
            for child in node.sortedChildren {
                draw(child, x: childX, level: level + 1)
                childX += Double(child.weight) * scale
            }
        }
        draw(root, x: 0, level: 0)
        var legendX = 8.0
        for module in modules.sorted().prefix(12) {
            let label = TextMeasure.fitted(module, width: 170, size: 10)
            let room = 14 + TextMeasure.width(label, size: 10) + 18
            if legendX + room > width { break }
            canvas.rect(
                x: legendX, y: legendTop, width: 10, height: 10,
                style: ShapeStyle(fill: FlameGraphSVG.color(module: module, name: "")), title: module)
            canvas.text(label, x: legendX + 14, y: legendTop + 9, size: 10, title: module)
            legendX += room
        }
        if cut {
            canvas.text(
                "Stacks deeper than \(maximumRows) frames are cut here; the flame graph file has them all.",
                x: 8, y: legendTop + 28, size: 10, colour: ChartPalette.mutedInk)
        }
        return canvas
    }
}
