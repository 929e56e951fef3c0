import Foundation
import LaunchSupport

/// How a shape is filled and stroked. Colours are CSS colours or a
/// `url(#id)` pattern reference from the same chart.
package struct ShapeStyle: Sendable, Equatable {
    package var fill: String
    package var stroke: String?
    package var strokeWidth: Double
    /// `stroke-dasharray`, e.g. "6 3"; nil for a solid line.
    package var dash: String?
    package var opacity: Double

    package init(fill: String = "none", stroke: String? = nil, strokeWidth: Double = 1, dash: String? = nil, opacity: Double = 1) {
        self.fill = fill
        self.stroke = stroke
        self.strokeWidth = strokeWidth
        self.dash = dash
        self.opacity = opacity
    }

    var attributes: String {
        var text = " fill=\"\(MarkupText.escape(fill))\""
        if let stroke {
            text += " stroke=\"\(MarkupText.escape(stroke))\" stroke-width=\"\(SVGCanvas.number(strokeWidth))\""
        }
        if let dash { text += " stroke-dasharray=\"\(dash)\"" }
        if opacity < 1 { text += " opacity=\"\(SVGCanvas.number(opacity))\"" }
        return text
    }
}
