import Foundation
import FoundationXML

/// A report page or SVG file read with a real XML parser (libxml2 through
/// FoundationXML): whether it is well-formed, its elements with their
/// attributes, and the text of every `<title>` (the hover text).
public final class MarkupInspection: NSObject, XMLParserDelegate {
    public struct Element {
        public var name: String
        public var attributes: [String: String]
    }

    public private(set) var elements: [Element] = []
    public private(set) var titles: [String] = []
    /// The parser's complaint with its line, nil when the markup is well-formed.
    public private(set) var error: String?
    private var openTitle: String?

    public static func parse(_ text: String) -> MarkupInspection {
        let inspection = MarkupInspection()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = inspection
        if !parser.parse() {
            let line = parser.lineNumber
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let context = line > 0 && line <= lines.count ? String(lines[line - 1].prefix(200)) : ""
            inspection.error = "line \(line): \(parser.parserError.map { "\($0)" } ?? "unknown error"): \(context)"
        }
        return inspection
    }

    public func elements(named name: String) -> [Element] { elements.filter { $0.name == name } }

    /// Titles that start with `prefix`.
    public func titles(startingWith prefix: String) -> [String] { titles.filter { $0.hasPrefix(prefix) } }

    public func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(Element(name: elementName, attributes: attributes))
        if elementName == "title" { openTitle = "" }
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        openTitle? += string
    }

    public func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "title", let title = openTitle {
            titles.append(title)
            openTitle = nil
        }
    }
}

/// The first exact time in hover text ("… run 3: 14.213457 ms") in nanoseconds.
public func nanoseconds(inHoverText text: String) -> Double? {
    guard let range = text.range(of: #"\d+\.\d{6} ms"#, options: .regularExpression) else { return nil }
    return Double(text[range].dropLast(3)).map { $0 * 1e6 }
}
