import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// Names the measured program chose (milestones, intervals, threads, module
/// paths) reach the terminal escaped and the markup outputs well-formed.
@Suite struct HostileNameTests {
    /// ESC sequences (clear screen, window title, cursor up), NUL, BEL,
    /// backspace, DEL, a C1 CSI, a newline forging a line, a bidi override.
    static let hostile = "a\u{1B}[2J\u{1B}]0;pwned\u{7}\u{0}b\u{8}\u{7F}\u{9B}31m\nlaunchprof: all good\u{202E}c"

    /// What a terminal must never receive from a name.
    static func hasControl(_ text: String, allowingNewlines: Bool = true) -> Bool {
        text.unicodeScalars.contains { scalar in
            if allowingNewlines, scalar == "\n" { return false }
            return scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
        }
    }

    @Test func terminalTextEscapesEveryControlCharacterVisibly() {
        #expect(
            TerminalText.sanitized(Self.hostile)
                == #"a\e[2J\e]0;pwned\x07\x00b\x08\x7f\u{9b}31m\nlaunchprof: all good\u{202e}c"#)
        #expect(TerminalText.sanitized("plain name é 🚀 with\\backslash") == "plain name é 🚀 with\\backslash")
        #expect(TerminalText.sanitized("tab\there\\e") == #"tab\there\\e"#)
        #expect(!Self.hasControl(TerminalText.sanitized(Self.hostile), allowingNewlines: false))
    }

    /// A hostile trace read from a real file: its milestone, interval and
    /// thread names.
    static func hostileTrace() throws -> Trace {
        var builder = TraceFileBuilder()
        builder.threadNames = [(1, "thread\u{1B}[31m")]
        builder.events = [
            .init(timestamp: 10, kind: .milestone, name: hostile),
            .init(timestamp: 20, kind: .intervalBegin, name: "interval\u{1B}[1A\u{0}"),
            .init(timestamp: 30, kind: .intervalEnd, name: "interval\u{1B}[1A\u{0}"),
        ]
        let path = TraceTestSupport.temporaryPath("hostile.lptrace")
        defer { unlink(path) }
        try Data(builder.bytes()).write(to: URL(fileURLWithPath: path))
        return try TraceReader.read(path: path)
    }

    @Test func textTimelineEscapesNamesFromTheTrace() throws {
        let text = TextTimelineExporter().export(try Self.hostileTrace())
        #expect(!Self.hasControl(text))
        #expect(text.contains(#"a\e[2J\e]0;pwned\x07\x00b\x08\x7f\u{9b}31m\nlaunchprof: all good\u{202e}c"#))
        #expect(text.contains(#"interval\e[1A\x00"#))
        #expect(text.contains(#"1 thread\e[31m"#))
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("launchprof: all good") })
    }

    @Test func chromeExportOfHostileNamesIsValidJSON() throws {
        let json = ChromeTraceExporter().export(try Self.hostileTrace())
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let events = try #require(parsed?["traceEvents"] as? [[String: Any]])
        #expect(events.contains { $0["name"] as? String == Self.hostile })
    }

    @Test func reportNamesOfMilestonesAreEscaped() {
        #expect(Metric.milestone("x\u{1B}[2J").displayName == #"milestone 'x\e[2J'"#)
        #expect(Metric.milestone("x\u{9B}2J").detailName == #"x\u{9b}2J"#)
    }

    /// A module path full of control characters: the profile summary and
    /// its warnings are escaped, the flame graph SVG parses as XML.
    @Test func flameGraphAndSummaryOfHostileModulesAreSafe() throws {
        let module = "/nonexistent/evil\u{1B}[2J\u{7}\u{0}\u{9B}\u{FFFE}<&>\".so"
        var builder = TraceFileBuilder()
        builder.events = [.init(timestamp: 10, kind: .milestone, name: "main")]
        builder.extraSections = TraceFileBuilder.samplingSections(frames: [0x10_0010], modules: [module])
        let path = TraceTestSupport.temporaryPath("hostile-module.lptrace")
        defer { unlink(path) }
        try Data(builder.bytes()).write(to: URL(fileURLWithPath: path))
        let profile = try Symbolizer(lineTool: .off).symbolize(try TraceReader.read(path: path), name: "evil\u{1B}[2J")
        let summary = ProfileSummary(profile).text
        #expect(!Self.hasControl(summary))
        #expect(summary.contains(#"evil\e[2J\x07\x00\u{9b}"#))
        let svg = FlameGraphSVG.svg(of: profile, title: "flame \u{1B}[2J\u{0}")
        let parsed = MarkupInspection.parse(svg)
        #expect(parsed.error == nil, "\(parsed.error ?? "")")
        #expect(!parsed.elements(named: "text").isEmpty)
        #expect(!svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func junitOfHostileNamesParsesAsXML() throws {
        var document = ReportFixtures.document()
        document.results[1].target.name = "app\u{1B}[2J\u{0}\u{7}\u{FFFF}"
        let xml = try JUnitExporter().export(document)
        let parsed = MarkupInspection.parse(xml)
        #expect(parsed.error == nil, "\(parsed.error ?? "")")
        #expect(parsed.elements(named: "testcase").contains { $0.attributes["name"]?.hasPrefix("app\u{FFFD}[2J") == true })
    }

    @Test func htmlMarkupEscapingReplacesControlCharacters() {
        let escaped = MarkupText.escape("<b>\u{1B}[2J\u{0}&\u{FFFE}")
        #expect(escaped == "&lt;b&gt;\u{FFFD}[2J\u{FFFD}&amp;\u{FFFD}")
        #expect(MarkupInspection.parse("<p>\(escaped)</p>").error == nil)
    }
}
