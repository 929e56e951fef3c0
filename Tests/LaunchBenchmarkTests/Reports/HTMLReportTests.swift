import Foundation
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// The HTML report as a reader and a parser see it: well-formed, a chart per
/// target, nothing loaded from elsewhere, and readable for empty, one-run
/// and failed results.
@Suite struct HTMLReportTests {
    @Test func thePageIsWellFormedWithATimelineAndADistributionPerTarget() throws {
        let page = MarkupInspection.parse(HTMLReport(document: ReportFixtures.document()).html())
        #expect(page.error == nil, "\(page.error ?? "")")
        let charts = Set(page.elements(named: "svg").compactMap { $0.attributes["id"] })
        #expect(charts == ["t1-warm-timeline", "t1-distribution", "t2-warm-timeline", "t2-distribution", "resources"])
        let sections = Set(page.elements(named: "section").compactMap { $0.attributes["id"] })
        #expect(sections == ["summary", "target-1", "target-2", "resources"])
        #expect(page.titles.contains("hello-c: time to ready and milestones, every run"))
    }

    @Test func coldBesideWarmInOneDistribution() throws {
        var document = ReportFixtures.document()
        var cold = document.results[1]
        cold.mode = .cold
        document.results.append(cold)
        let page = MarkupInspection.parse(HTMLReport(document: document).html())
        #expect(page.error == nil, "\(page.error ?? "")")
        let ids = page.elements(named: "svg").compactMap { $0.attributes["id"] }
        #expect(ids.contains("t2-cold-timeline") && ids.contains("t2-warm-timeline"))
        #expect(!page.titles(startingWith: "sample-app (cold), time to ready, median").isEmpty)
        #expect(!page.titles(startingWith: "sample-app (warm), time to ready, median").isEmpty)
    }

    @Test func nothingOutsideThePageIsReferenced() throws {
        var document = ReportFixtures.document()
        document.commandLine = ["launchprof", "run", "curl http://example.com/x", "--output", "//server/share"]
        let html = HTMLReport(document: document).html()
        try expectSelfContained(html)
    }

    @Test func hostileNamesStayTextAndThePageStaysWellFormed() throws {
        var document = ReportFixtures.document()
        let name = "<script>alert(\"x\")</script> & 'q' https://evil.example/a.js \u{1}"
        document.results[1].target.name = name
        document.results[1].target.arguments = ["/bin/app", "--from", "//cdn.example/x.js", "]]>"]
        let html = HTMLReport(document: document).html()
        let page = MarkupInspection.parse(html)
        #expect(page.error == nil, "\(page.error ?? "")")
        #expect(page.elements(named: "script").isEmpty)
        try expectSelfContained(html)
        // The parser reads the name back as text (the control character replaced).
        let shown = name.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}")
        #expect(page.titles.contains { $0.hasPrefix("\(shown) (warm), time to ready, median") })
    }

    @Test func emptyResultsGiveAReadablePage() throws {
        var document = ReportFixtures.document()
        document.results = []
        let html = HTMLReport(document: document).html()
        let page = MarkupInspection.parse(html)
        #expect(page.error == nil, "\(page.error ?? "")")
        #expect(page.elements(named: "svg").isEmpty)
        #expect(html.contains("The results hold no targets"))
        #expect(html.contains("0 targets · 0 measured runs"))
    }

    @Test func oneRunGivesAReadablePageWithThatRunAsTheMedian() throws {
        var document = ReportFixtures.document()
        document.results = [
            Summarizer().summarize(
                BenchmarkResult(
                    target: LaunchTarget(name: "once", arguments: ["/bin/true"]), mode: .warm,
                    runs: Array(ReportFixtures.runs(ms: 3, count: 1, milestones: true))))
        ]
        let page = MarkupInspection.parse(HTMLReport(document: document).html())
        #expect(page.error == nil, "\(page.error ?? "")")
        #expect(page.titles.contains("once (warm), time to ready, median: 3.000000 ms"))
        #expect(page.titles.contains("once (warm), time to ready, p90: 3.000000 ms"))
        #expect(page.titles.contains { $0.hasPrefix("once (warm), main: 0.600000 ms after spawn (run 1 of 1") })
    }

    @Test func lifecycleDurationsGetTheirOwnStrips() throws {
        var document = ReportFixtures.document()
        var runs = ReportFixtures.runs(ms: 5, count: 3)
        for index in runs.indices { runs[index].timeToShutdown = UInt64(1_000_000 + index * 1000) }
        document.results = [
            Summarizer().summarize(
                BenchmarkResult(
                    target: LaunchTarget(name: "server", arguments: ["/opt/server"]), mode: .warm, runs: runs))
        ]
        let page = MarkupInspection.parse(HTMLReport(document: document).html())
        #expect(page.error == nil, "\(page.error ?? "")")
        let name = Metric.timeToShutdown.displayName
        #expect(page.titles.contains("server (warm), \(name), run 2: 1.001000 ms"))
    }

    @Test func aFailedTargetIsReportedNotDrawn() throws {
        var document = ReportFixtures.document()
        let failedRuns = (0..<3).map { RunMeasurement(index: $0, wallToExit: 2_000_000, exit: .exited(1)) }
        document.results.append(
            Summarizer().summarize(
                BenchmarkResult(
                    target: LaunchTarget(name: "broken", arguments: ["/bin/false"]), mode: .warm, runs: failedRuns)))
        let html = HTMLReport(document: document).html()
        let page = MarkupInspection.parse(html)
        #expect(page.error == nil, "\(page.error ?? "")")
        #expect(page.elements(named: "svg").contains { $0.attributes["id"] == "t3-distribution" })
        #expect(html.contains("3 of 3 runs failed: exited with status 1"))
        #expect(html.contains("no successful run"))
        #expect(html.contains("3 failed"))
    }

    /// No address, no loaded resource: no scheme or protocol-relative `//`
    /// anywhere, every href a fragment, no element that loads anything.
    private func expectSelfContained(_ html: String) throws {
        for needle in ["http:", "https:", "ftp:", "file:", "//", "@import", "@font-face"] {
            #expect(!html.contains(needle), "the page contains \(needle)")
        }
        #expect(html.range(of: #"url\((?!#)"#, options: .regularExpression) == nil)
        let page = MarkupInspection.parse(html)
        #expect(page.error == nil, "\(page.error ?? "")")
        for element in page.elements {
            #expect(!["script", "link", "img", "image", "iframe", "object", "embed", "use"].contains(element.name))
            #expect(element.attributes["src"] == nil)
            for key in ["href", "xlink:href"] {
                if let target = element.attributes[key] { #expect(target.hasPrefix("#"), "\(key)=\(target)") }
            }
        }
    }
}
