import Foundation
import LaunchSupport

/// Builds one SVG chart: shapes and text with hover titles, every string
/// escaped, coordinates in pixels from the top left.
///
/// The same markup is used inline in the HTML report (no namespace needed
/// there) and as a standalone `.svg` file (with its namespace).
package struct SVGCanvas: Sendable {
    package let width: Double
    package var height: Double
    /// Prefix for ids inside this chart (patterns), unique within a page.
    package let idPrefix: String
    private var definitions: [String] = []
    private var elements: [String] = []

    package init(width: Double, height: Double, idPrefix: String) {
        self.width = width
        self.height = height
        self.idPrefix = idPrefix
    }

    // MARK: - Shapes

    package mutating func rect(x: Double, y: Double, width: Double, height: Double, style: ShapeStyle, title: String? = nil) {
        let geometry =
            "x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(max(0, width)))\" "
            + "height=\"\(Self.number(max(0, height)))\""
        add("rect", geometry + style.attributes, title: title)
    }

    package mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, style: ShapeStyle, title: String? = nil) {
        let geometry = "x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\""
        add("line", geometry + style.attributes, title: title)
    }

    package mutating func circle(x: Double, y: Double, radius: Double, style: ShapeStyle, title: String? = nil) {
        add("circle", "cx=\"\(Self.number(x))\" cy=\"\(Self.number(y))\" r=\"\(Self.number(radius))\"" + style.attributes, title: title)
    }

    package mutating func polygon(_ points: [(x: Double, y: Double)], style: ShapeStyle, title: String? = nil) {
        let list = points.map { "\(Self.number($0.x)),\(Self.number($0.y))" }.joined(separator: " ")
        add("polygon", "points=\"\(list)\"" + style.attributes, title: title)
    }

    package enum Anchor: String, Sendable { case start, middle, end }

    /// Text with its baseline at `y`. With `background`, a white box is
    /// drawn under it first, so lines behind a label stop short of it.
    package mutating func text(
        _ string: String, x: Double, y: Double, size: Double = 11, anchor: Anchor = .start, bold: Bool = false,
        colour: String = ChartPalette.ink, background: Bool = false, title: String? = nil
    ) {
        if background {
            let width = TextMeasure.width(string, size: size, bold: bold)
            let left =
                switch anchor {
                case .start: x
                case .middle: x - width / 2
                case .end: x - width
                }
            rect(x: left - 2, y: y - size * 0.85, width: width + 4, height: size * 1.15, style: ShapeStyle(fill: "#ffffff", opacity: 0.9))
        }
        var attributes = "x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" font-size=\"\(Self.number(size))\""
        if anchor != .start { attributes += " text-anchor=\"\(anchor.rawValue)\"" }
        if bold { attributes += " font-weight=\"bold\"" }
        attributes += " fill=\"\(colour)\""
        let body = (title.map { "<title>\(MarkupText.escape($0))</title>" } ?? "") + MarkupText.escape(string)
        elements.append("<text \(attributes)>\(body)</text>")
    }

    /// A diagonal-hatch pattern in `colour` over `background`; use the
    /// returned `url(#…)` as a fill. Patterns make a shape read apart from a
    /// plain one of the same grey when printed or seen without colour.
    package mutating func hatch(_ name: String, colour: String, background: String, spacing: Double = 5) -> String {
        let id = "\(idPrefix)-\(name)"
        if !definitions.contains(where: { $0.contains("id=\"\(id)\"") }) {
            definitions.append(
                "<pattern id=\"\(id)\" patternUnits=\"userSpaceOnUse\" width=\"\(Self.number(spacing))\" "
                    + "height=\"\(Self.number(spacing))\" patternTransform=\"rotate(45)\">"
                    + "<rect width=\"\(Self.number(spacing))\" height=\"\(Self.number(spacing))\" fill=\"\(background)\"/>"
                    + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"\(Self.number(spacing))\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
                    + "</pattern>")
        }
        return "url(#\(id))"
    }

    private mutating func add(_ name: String, _ attributes: String, title: String?) {
        if let title {
            elements.append("<\(name) \(attributes)><title>\(MarkupText.escape(title))</title></\(name)>")
        } else {
            elements.append("<\(name) \(attributes)/>")
        }
    }

    // MARK: - Output

    /// The whole `<svg>` element. `title` names the chart for screen readers
    /// and as its tooltip; `standalone` adds the namespace a `.svg` file needs.
    package func markup(title: String, standalone: Bool = false) -> String {
        let namespace = standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : ""
        var lines = [
            "<svg\(namespace) id=\"\(idPrefix)\" class=\"chart\" role=\"img\" aria-labelledby=\"\(idPrefix)-title\" "
                + "width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" "
                + "viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\" "
                + "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">",
            "<title id=\"\(idPrefix)-title\">\(MarkupText.escape(title))</title>",
        ]
        if standalone { lines.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>") }
        if !definitions.isEmpty { lines.append("<defs>" + definitions.joined() + "</defs>") }
        lines += elements
        lines.append("</svg>")
        return lines.joined(separator: "\n")
    }

    /// A coordinate with at most two decimals and no trailing zeros.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int64(rounded)) }
        var text = String(format: "%.2f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
