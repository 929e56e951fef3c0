/// Names from untrusted input (trace milestone, interval and thread names,
/// module paths, library names, process names), made safe to print on a
/// terminal.
///
/// A name is written by the measured program: an ESC sequence in it could
/// move the cursor, retitle the window or hide the lines around it, and a
/// newline could forge a line of launchprof's own output. Every control
/// character — C0 (tab and newline included), DEL and C1 — and the bidi
/// overrides that reorder what is shown are written as visible escapes
/// (`\e`, `\n`, `\x7f`, `\u{9b}`, `\u{202e}`); a backslash is doubled so an
/// escape cannot be forged either. Everything else is printed unchanged.
package enum TerminalText {
    /// `text` with its control characters escaped; unchanged when it has none.
    package static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{1B}": result += "\\e"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\x" + hex(scalar.value, digits: 2)
            case _ where needsEscape(scalar):
                result += "\\u{" + hex(scalar.value, digits: 0) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` is escaped (a backslash only when something else is).
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0: true  // C0, DEL, C1 (0x9B is a one-byte CSI)
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidi embeddings, overrides, isolates
        default: false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
