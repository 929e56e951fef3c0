/// What a legend entry shows.
package enum LegendSwatch: Sendable {
    case box(ShapeStyle)
    case line(ShapeStyle)
    case dot(String)
    case diamond(String)
}
