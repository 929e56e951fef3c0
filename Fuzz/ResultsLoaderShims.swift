/// What the results loader's fuzz build leaves out: the differential flame
/// graph's drawing (which a loaded document never runs) names the flame
/// graph's text fitting from the profiling stack.
enum FlameGraphSVG {
    static func fit(_ name: String, width: Double) -> String { name }
}

/// The interval roles the attribution reads (RunIntervals, which pairs
/// traces, is not part of loading a document).
enum RunIntervals {
    static let path = "path"
    static let enclosing = "enclosing"
    static let off = "off"
}
