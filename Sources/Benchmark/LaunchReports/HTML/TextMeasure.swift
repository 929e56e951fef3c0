/// Estimates how wide a string is drawn, so labels can be placed without
/// overlapping and charts sized to their longest label.
///
/// The widths are DejaVu Sans's advance widths (the first font the charts
/// ask for, and the default sans-serif on Debian), in ems. Narrower fonts
/// (Verdana is close, Arial narrower) only leave more room: the estimate
/// errs wide for anything it does not know.
package enum TextMeasure {
    /// Width in pixels of `text` at `size` pixels (bold adds about 10%).
    package static func width(_ text: String, size: Double = 11, bold: Bool = false) -> Double {
        let ems = text.unicodeScalars.reduce(0.0) { $0 + advance(of: $1) }
        return ems * size * (bold ? 1.1 : 1)
    }

    private static let lowercase: [Double] = [
        0.613, 0.635, 0.550, 0.635, 0.615, 0.352, 0.635, 0.634, 0.278, 0.278, 0.579, 0.278, 0.974,  // a–m
        0.634, 0.612, 0.635, 0.635, 0.411, 0.521, 0.392, 0.634, 0.592, 0.818, 0.592, 0.592, 0.525,  // n–z
    ]
    private static let uppercase: [Double] = [
        0.684, 0.686, 0.698, 0.770, 0.632, 0.575, 0.775, 0.752, 0.295, 0.295, 0.656, 0.557, 0.863,  // A–M
        0.748, 0.787, 0.603, 0.787, 0.695, 0.635, 0.611, 0.732, 0.684, 0.989, 0.685, 0.611, 0.685,  // N–Z
    ]

    private static func advance(of scalar: Unicode.Scalar) -> Double {
        let value = scalar.value
        switch scalar {
        case "a"..."z": return lowercase[Int(value - 97)]
        case "A"..."Z": return uppercase[Int(value - 65)]
        case "0"..."9", "µ", "$", "#", "?": return 0.636
        case " ", ".", ",", "·", "'", "|", "!", ";": return 0.318
        case ":", "/", "\\": return 0.337
        case "(", ")", "[", "]", "{", "}": return 0.390
        case "-": return 0.361
        case "_", "\"": return 0.500
        case "%", "@", "…": return 1.000
        case "±", "→", "≤", "≥", "+", "=", "<", ">", "×", "~": return 0.838
        case "▲", "▼", "●", "■", "◆": return 0.800
        default:
            // Wide scripts (CJK, emoji) take a full em; other letters are
            // taken as wide Latin ones.
            return value >= 0x2E80 ? 1.0 : 0.78
        }
    }
}
