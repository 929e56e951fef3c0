import LaunchEngine

/// The colours and line styles every chart uses.
///
/// Colours are from the Okabe–Ito palette, which stays distinguishable with
/// the common colour-vision deficiencies. Nothing is told by colour alone:
/// cold and warm differ in lightness too, the baseline is hatched, a
/// regression has its own marker shape and word, budgets are dashed.
package enum ChartPalette {
    /// Text and axes.
    package static let ink = "#1f2328"
    package static let mutedInk = "#57606a"
    package static let grid = "#d8dee4"
    package static let band = "#f6f8fa"

    package static let cold = "#0072B2"  // blue
    package static let warm = "#E69F00"  // orange
    package static let baseline = "#7a7a7a"  // grey, hatched

    package static let regressed = "#D55E00"  // vermillion
    package static let improved = "#009E73"  // bluish green
    package static let unchanged = "#8c8c8c"
    package static let budget = "#B2182B"
    package static let budgetPassed = "#1b7837"

    // The waterfall.
    package static let preMain = "#56B4E9"  // sky blue: exec, loading, runtime start-up
    package static let beforeMain = "#9ecae1"
    package static let toReady = "#0072B2"
    package static let afterReady = "#c6c6c6"
    package static let slice = "#009E73"
    package static let asyncInterval = "#CC79A7"  // reddish purple
    package static let deferred = "#E69F00"
    package static let prewarm = "#7b5ea7"
    package static let event = "#1f2328"

    /// The colour of a launch mode.
    package static func colour(of mode: LaunchMode) -> String {
        switch mode {
        case .cold: cold
        case .warm: warm
        }
    }

    /// Dashes for budget lines.
    package static let budgetDash = "6 3"
    /// Dashes for p90 marks and milestone lines.
    package static let markDash = "3 2"
}
