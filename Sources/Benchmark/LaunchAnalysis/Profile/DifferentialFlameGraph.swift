import Foundation
import LaunchSupport

/// The differential flame graph: drawn like `FlameGraphSVG`, with the
/// current profile's widths and each frame coloured by how its samples per
/// launch changed against the baseline.
package enum DifferentialFlameGraph {
    final class Node {
        let name: String
        var after = 0.0
        var before = 0.0
        var children: [String: Node] = [:]
        init(_ name: String) { self.name = name }
        var depth: Int { 1 + (children.values.map(\.depth).max() ?? 0) }
    }

    /// The SVG of `after` against `before` (folded stacks, weights per launch), titled `title`.
    package static func svg(before: String, launchesBefore: Int, after: String, launchesAfter: Int, title: String) -> String {
        let root = Node("all")
        func add(_ text: String, launches: Int, into keyPath: ReferenceWritableKeyPath<Node, Double>) {
            for (frames, weight) in ProfileDifference.parseFolded(text) {
                let value = weight / Double(max(launches, 1))
                root[keyPath: keyPath] += value
                var node = root
                for name in frames {
                    let child = node.children[name] ?? Node(name)
                    node.children[name] = child
                    child[keyPath: keyPath] += value
                    node = child
                }
            }
        }
        add(before, launches: launchesBefore, into: \.before)
        add(after, launches: launchesAfter, into: \.after)
        let width = 1200.0, rowHeight = 17.0, top = 46.0
        let rows = root.depth
        let height = top + Double(rows) * rowHeight + 40
        let total = max(root.after, 1e-9)
        // The colour scale: the largest change of any frame is the deepest.
        var largest = 1e-9
        func scan(_ node: Node) {
            largest = max(largest, abs(node.after - node.before))
            node.children.values.forEach(scan)
        }
        scan(root)
        var body = ""
        func draw(_ node: Node, x: Double, level: Int) {
            let w = node.after / total * (width - 20)
            guard w >= 0.3 else { return }
            let y = top + Double(rows - 1 - level) * rowHeight
            let change = node.after - node.before
            let strength = min(1, abs(change) / largest)
            let fade = Int(255 - 200 * strength)
            let fill = change > 0 ? "rgb(255,\(fade),\(fade))" : change < 0 ? "rgb(\(fade),\(fade),255)" : "rgb(235,235,235)"
            let tip =
                "\(node.name) — \(format(node.before)) → \(format(node.after)) samples per launch "
                + "(\(change >= 0 ? "+" : "")\(format(change)))"
            body += "<g><title>\(MarkupText.escape(tip))</title>"
            body +=
                "<rect x=\"\(format(10 + x))\" y=\"\(format(y))\" width=\"\(format(w))\" height=\"\(format(rowHeight - 1))\" fill=\"\(fill)\" stroke=\"rgb(190,190,190)\" stroke-width=\"0.4\" rx=\"2\"/>"
            body +=
                "<text x=\"\(format(13 + x))\" y=\"\(format(y + 12))\">\(MarkupText.escape(FlameGraphSVG.fit(node.name, width: w)))</text></g>\n"
            var childX = x
            for child in node.children.values.sorted(by: { $0.name < $1.name }) {
                draw(child, x: childX, level: level + 1)
                childX += child.after / total * (width - 20)
            }
        }
        draw(root, x: 0, level: 0)
        let subtitle =
            "width: samples per launch now (\(format(root.after))); red grew, blue shrank against the baseline "
            + "(\(format(root.before)) per launch)"
        return """
            <?xml version="1.0" standalone="no"?>
            <svg version="1.1" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" xmlns="http://www.w3.org/2000/svg">
            <style>text { font-family: DejaVu Sans, Verdana, sans-serif; font-size: 11px; fill: #1f2328; }</style>
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="\(Int(width / 2))" y="20" text-anchor="middle" style="font-size:15px">\(MarkupText.escape(title))</text>
            <text x="\(Int(width / 2))" y="36" text-anchor="middle" style="font-size:11px; fill:#57606a">\(MarkupText.escape(subtitle))</text>
            \(body)</svg>

            """
    }

    static func format(_ value: Double) -> String { HumanUnits.fixed(value, decimals: 1) }
}
