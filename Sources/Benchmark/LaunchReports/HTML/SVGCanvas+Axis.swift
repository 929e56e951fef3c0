extension SVGCanvas {
    /// Vertical grid lines at the scale's ticks from `top` to `bottom`, and
    /// the tick labels below `bottom`.
    package mutating func timeAxis(_ scale: LinearScale, top: Double, bottom: Double) {
        for (tick, label) in zip(scale.ticks, scale.tickLabels) {
            let x = scale(tick)
            line(x1: x, y1: top, x2: x, y2: bottom, style: ShapeStyle(stroke: ChartPalette.grid))
            // The last label ends at the edge rather than past it.
            let overflows = x + TextMeasure.width(label, size: 10) / 2 > width - 2
            text(
                label, x: overflows ? width - 2 : x, y: bottom + 13, size: 10, anchor: overflows ? .end : .middle,
                colour: ChartPalette.mutedInk)
        }
    }

    /// A row of legend entries (a swatch and a name) from `x`, wrapping at
    /// the canvas width; returns the y below the last line.
    package mutating func legend(_ entries: [(swatch: LegendSwatch, name: String)], x: Double, y: Double) -> Double {
        var cursor = x
        var baseline = y
        for (swatch, name) in entries {
            let width = 16 + TextMeasure.width(name, size: 10) + 14
            if cursor + width > self.width - 8, cursor > x {
                cursor = x
                baseline += 15
            }
            drawSwatch(swatch, x: cursor, y: baseline - 8)
            text(name, x: cursor + 16, y: baseline, size: 10, colour: ChartPalette.mutedInk)
            cursor += width
        }
        return baseline + 8
    }

    private mutating func drawSwatch(_ swatch: LegendSwatch, x: Double, y: Double) {
        switch swatch {
        case .box(let style):
            rect(x: x, y: y, width: 12, height: 9, style: style)
        case .line(let style):
            line(x1: x, y1: y + 4.5, x2: x + 12, y2: y + 4.5, style: style)
        case .dot(let colour):
            circle(x: x + 6, y: y + 4.5, radius: 3, style: ShapeStyle(fill: colour))
        case .diamond(let colour):
            polygon(Self.diamond(x: x + 6, y: y + 4.5, size: 4), style: ShapeStyle(fill: colour))
        }
    }

    /// The corners of a diamond centred on (x, y).
    package static func diamond(x: Double, y: Double, size: Double) -> [(x: Double, y: Double)] {
        [(x, y - size), (x + size, y), (x, y + size), (x - size, y)]
    }
}
