/// One chart of a report: the page shows it inline, `--svg-dir` writes it
/// as a file of its own.
package struct ReportChart: Sendable {
    /// Unique within the report; also the SVG's id prefix.
    package var id: String
    package var title: String
    /// File name under `--svg-dir`, e.g. `1-sample-app-distribution.svg`.
    package var fileName: String
    package var canvas: SVGCanvas

    /// The `<svg>` element, with its namespace when `standalone`.
    package func markup(standalone: Bool = false) -> String {
        canvas.markup(title: title, standalone: standalone)
    }

    /// A name for files and ids: lowercase letters, digits and dashes.
    package static func slug(_ text: String) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        while slug.hasPrefix("-") { slug.removeFirst() }
        return String((slug.isEmpty ? "target" : slug).prefix(40))
    }
}
