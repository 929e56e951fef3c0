import Foundation
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// A profiled target's flame graph in the HTML report (`run --profile
/// --report`), and the profile's record in the results.
@Suite struct HTMLReportProfileTests {
    /// sample-app's profile: main → work (8, of which mix 5) and main → memcpy (2).
    static func profile() -> SymbolizedProfile {
        let frames: [SymbolizedProfile.Frame] = [
            .init(name: "main", module: "sample-app"), .init(name: "work(size: Swift.Int) -> ()", module: "sample-app"),
            .init(name: "mix", module: "sample-app", file: "/src/mix.swift", line: 7, inlined: true),
            .init(name: "memcpy", module: "libc.so.6"),
        ]
        return SymbolizedLineOutputsTests.make(
            frames,
            [
                .init(threadID: 1, timestamp: 0, weight: 3, frames: [0, 1]),
                .init(threadID: 1, timestamp: 1, weight: 5, frames: [0, 1, 2]),
                .init(threadID: 2, timestamp: 2, weight: 2, frames: [0, 3]),
            ])
    }

    static func record() -> ProfileRecord {
        ProfileRecord(
            target: "sample-app", profile: profile(), flameGraph: "prof/sample-app.svg",
            speedscope: "prof/sample-app.speedscope.json", folded: "prof/sample-app.folded")
    }

    static func page(drawn: Bool) -> (html: String, page: MarkupInspection) {
        var document = ReportFixtures.document()
        document.profiles = [record()]
        let html = HTMLReport(document: document, profiles: drawn ? ["sample-app": profile()] : [:]).html()
        return (html, MarkupInspection.parse(html))
    }

    @Test func theProfiledTargetGetsAFlameGraphAfterItsDistribution() throws {
        let (html, page) = Self.page(drawn: true)
        #expect(page.error == nil, "\(page.error ?? "")")
        let ids = page.elements(named: "svg").compactMap { $0.attributes["id"] }
        #expect(ids == ["t1-warm-timeline", "t1-distribution", "t2-warm-timeline", "t2-distribution", "t2-profile", "resources"])
        #expect(page.titles.contains("sample-app: where the launch's CPU time goes"))
        // Hover titles: full name, inlined, module, file:line, weight and share.
        #expect(page.titles.contains("mix (inlined) [sample-app] /src/mix.swift:7 — 5 samples, 50.0%"))
        #expect(page.titles.contains("work(size: Swift.Int) -> () [sample-app] — 8 samples, 80.0%"))
        #expect(page.titles.contains("memcpy [libc.so.6] — 2 samples, 20.0%"))
        #expect(page.titles.contains("all threads, all launches — 10 samples, 100.0%"))
        // The page still loads nothing and runs nothing.
        #expect(page.elements(named: "script").isEmpty)
        #expect(!html.contains("http:") && !html.contains("https:"))
        #expect(html.contains("Profile files: flame graph <code>prof/sample-app.svg</code>"))
    }

    /// `run --profile --baseline --report`: the differential flame graph is
    /// written once and drawn from memory; with its file gone before the
    /// page is made, the page still draws it. A later `report` reads the
    /// file, and names it when it cannot.
    @Test func theDifferentialFlameGraphIsDrawnFromMemoryNotReadBack() throws {
        let directory = Products.temporaryPath("diff-in-memory")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var before = Self.record()
        before.folded = "\(directory)/before.folded"
        try "main;work(size: Swift.Int) -> () 8\nmain;memcpy 2\n".write(toFile: before.folded, atomically: true, encoding: .utf8)
        var current = Self.record()
        current.folded = "\(directory)/sample-app.folded"  // never written: the profile is in memory
        let (differences, flameGraphs) = BenchmarkSession.profileDifferences(
            baseline: [before], current: [current], profiles: ["sample-app": Self.profile()])
        let difference = try #require(differences.first)
        let path = try #require(difference.flameGraph)
        #expect(path == "\(directory)/sample-app-diff.svg")
        let svg = try #require(flameGraphs["sample-app"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == svg, "the file holds what is kept in memory")
        try FileManager.default.removeItem(atPath: path)
        var comparison = BaselineComparison(
            baseline: "before", baselineDate: "2026-11-27", baselineToolVersion: "test", warnings: [], changes: [])
        comparison.profileDifferences = differences
        var document = ReportFixtures.document()
        document.profiles = [current]
        let html = HTMLReport(document: document, comparison: comparison, differentialFlameGraphs: flameGraphs).html()
        #expect(MarkupInspection.parse(html).error == nil)
        #expect(html.contains("<figure class=\"flame\"><svg"), "drawn from memory, with its file gone")
        // A later report: the file is gone, so it is named, with the reason.
        let saved = HTMLReport.savedDifferentialFlameGraphs(of: comparison)
        #expect(saved.flameGraphs.isEmpty)
        #expect(saved.problems == ["differential flame graph '\(path)' of 'sample-app': it does not exist"])
        let later = HTMLReport(document: document, comparison: comparison, differentialFlameGraphs: saved.flameGraphs).html()
        #expect(
            !later.contains("<figure class=\"flame\">")
                && later.contains("Differential flame graph: <code>\(MarkupText.escape(path))</code>"))
    }

    @Test func widthsAreProportionalToWeight() throws {
        var chart = ProfileChart(target: "sample-app", profile: Self.profile(), id: "p")
        chart.width = 1016  // 1000 px for the frames
        let markup = chart.render().markup(title: chart.title)
        #expect(MarkupInspection.parse(markup).error == nil)
        let titled = Self.titledRects(markup)
        func width(of name: String) -> Double? { titled.first { $0.title.hasPrefix(name) }?.width }
        #expect(width(of: "all threads") == 1000)
        #expect(width(of: "main [") == 1000)
        #expect(width(of: "work(") == 800)
        #expect(width(of: "mix (inlined)") == 500)
        #expect(width(of: "memcpy") == 200)
    }

    @Test func deepStacksAreCutAndTheChartSaysSo() throws {
        var profile = Self.profile()
        let deep = (0..<200).map { SymbolizedProfile.Frame(name: "recurse\($0)", module: "sample-app") }
        profile.frames += deep
        profile.stacks.append(.init(threadID: 1, timestamp: 3, weight: 4, frames: Array(4..<204)))
        var chart = ProfileChart(target: "sample-app", profile: profile, id: "p")
        chart.maximumRows = 20
        let canvas = chart.render()
        let markup = canvas.markup(title: chart.title)
        #expect(markup.contains("Stacks deeper than 20 frames are cut here"))
        #expect(markup.contains("recurse18 [sample-app]") && !markup.contains("recurse19 [sample-app]"))
        #expect(canvas.height < 20 * ProfileChart.rowHeight + 120)
    }

    @Test func aProfileWithoutSamplesSaysWhy() {
        var profile = Self.profile()
        profile.stacks = []
        let chart = ProfileChart(target: "sample-app", profile: profile, id: "p")
        let markup = chart.render().markup(title: chart.title)
        #expect(markup.contains("No samples: the sampled window"))
        #expect(MarkupInspection.parse(markup).error == nil)
    }

    @Test func aReportMadeLaterFromTheResultsNamesTheHottestAndTheFiles() throws {
        let (_, page) = Self.page(drawn: false)
        #expect(page.error == nil, "\(page.error ?? "")")
        #expect(!page.elements(named: "svg").contains { $0.attributes["id"] == "t2-profile" })
        let (html, _) = Self.page(drawn: false)
        #expect(
            html.contains("Profiled: 3 samples from 1 launch at 1000 Hz; hottest (self): mix 50.0%, work 30.0%, memcpy 20.0%."), "\(html)")
        #expect(html.contains("speedscope <code>prof/sample-app.speedscope.json</code>"))
    }

    @Test func theRecordKeepsCountsSharesAndPathsThroughJSON() throws {
        let record = Self.record()
        #expect(record.samples == 3 && record.weight == 10 && record.launches == 1 && record.rateHz == 1000)
        #expect(record.hottest.map(\.name) == ["mix", "work(size: Swift.Int) -> ()", "memcpy"])
        #expect(record.hottest.map(\.weight) == [5, 3, 2])
        #expect(record.hottest.first?.share == 0.5)
        var document = ReportFixtures.document()
        document.profiles = [record]
        let data = try document.jsonData()
        let decoded = try ResultsDocument.decode(data, path: "r.json")
        #expect(decoded.profiles == [record])
        // Results written before profiles existed still read.
        document.profiles = nil
        let old = try document.jsonData()
        #expect(!String(decoding: old, as: UTF8.self).contains("\"profiles\""))
        #expect(try ResultsDocument.decode(old, path: "old.json").profiles == nil)
    }

    /// (hover title, width) of each titled rect, in drawing order.
    static func titledRects(_ markup: String) -> [(title: String, width: Double)] {
        let pattern = #"<rect [^>]*? width="([0-9.]+)"[^>]*><title>([^<]*)</title>"#
        let regex = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(markup.startIndex..., in: markup)
        return regex.matches(in: markup, range: range).map { match in
            let width = Double(markup[Range(match.range(at: 1), in: markup)!])!
            let title = String(markup[Range(match.range(at: 2), in: markup)!])
            let text = [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")]
                .reduce(title) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
            return (text, width)
        }
    }
}
