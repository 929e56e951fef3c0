/// Text and attribute values for XML, XHTML and SVG markup: the one escaper
/// of the HTML report, the flame graphs and the JUnit file.
///
/// Escaping is what keeps a report well-formed and inert whatever the results
/// hold: a target named `<script>` or `a & b`, a command line with quotes, a
/// control character. It also keeps the report free of anything that reads
/// as an address: a `:` or `/` right before a `/` is written as a character
/// reference, so `http://…` in a command line shows as itself in a browser
/// but never appears literally for a viewer (or a mail filter) to follow.
package enum MarkupText {
    /// `text` safe in element content and in double- or single-quoted attributes.
    package static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var previous: Unicode.Scalar?
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let scalar = next {
            next = scalars.next()
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            // As references, so that an attribute value keeps them (a parser
            // normalizes literal ones to spaces); in content they are the same.
            case "\n": result += "&#10;"
            case "\t": result += "&#9;"
            case "\r": result += "&#13;"
            case ":" where next == "/": result += "&#58;"
            case "/" where previous == "/" || next == "/": result += "&#47;"
            default:
                // XML 1.0 allows no C0 control but tab, newline and return,
                // and not U+FFFE/U+FFFF: not even as character references.
                if isAllowedInXML(scalar) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "\u{FFFD}"
                }
            }
            previous = scalar
        }
        return result
    }

    /// Whether XML 1.0 allows `scalar` in a document (Char production).
    package static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x0..<0x20: false
        case 0xFFFE, 0xFFFF: false
        default: true
        }
    }
}
