import Foundation
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// The numbers a reader gets by hovering equal the JSON results: every run,
/// every median and p90, the median run's marks, the resources.
@Suite struct HTMLReportNumberTests {
    /// The fixture as written to and read back from JSON, so the comparison
    /// is with the numbers a results file holds.
    private func jsonDocument() throws -> ResultsDocument {
        var document = ReportFixtures.document()
        var cold = document.results[1]
        cold.mode = .cold
        document.results.append(cold)
        return try ResultsDocument.decode(document.jsonData(), path: "fixture.json")
    }

    @Test func everyRunMedianAndP90IsInTheHoverText() throws {
        let document = try jsonDocument()
        let page = MarkupInspection.parse(HTMLReport(document: document).html())
        try #require(page.error == nil, "\(page.error ?? "")")
        var checked = 0
        for result in document.results {
            for metric in DistributionSeries.timeMetrics(of: [result]) {
                let prefix = "\(result.label), \(metric.displayName)"
                for run in result.successfulRuns {
                    let expected = try #require(metric.value(in: run))
                    try expectTitle("\(prefix), run \(run.index + 1): ", in: page, equals: expected)
                    checked += 1
                }
                let summary = try #require(result.summaries[metric.key])
                try expectTitle("\(prefix), median: ", in: page, equals: summary.median)
                try expectTitle("\(prefix), p90: ", in: page, equals: summary.p90)
            }
        }
        #expect(checked == 20 + 2 * 20 * 4)  // hello-c: time to ready; sample-app: ready, entry, main, milestone; two modes
    }

    @Test func theTimelineMarksAreTheMedianRunsTimes() throws {
        let document = try jsonDocument()
        let page = MarkupInspection.parse(HTMLReport(document: document).html())
        for result in document.results {
            // The median run, found here independently: lower middle by time to ready.
            let ranked = result.runs.filter(\.exit.isSuccess).sorted { ($0.wallToReady!, $0.index) < ($1.wallToReady!, $1.index) }
            let run = ranked[(ranked.count - 1) / 2]
            var marks: [(String, UInt64?)] = [("process entry", run.processEntry), ("main", run.main), ("exit", run.wallToExit)]
            marks += run.milestones.map { ($0.name, $0.nanoseconds) }
            for (name, time) in marks {
                guard let time else { continue }
                let title = try #require(
                    page.titles(startingWith: "\(result.label), \(name): ").first, "no mark \(name) of \(result.label)")
                #expect(title.contains("(run \(run.index + 1) of \(result.runs.count), the median time to ready)"))
                #expect(abs(try #require(nanoseconds(inHoverText: title)) - Double(time)) <= 0.5)
            }
        }
    }

    @Test func resourcesAreTheMediansOfTheResults() throws {
        let document = try jsonDocument()
        let page = MarkupInspection.parse(HTMLReport(document: document).html())
        for result in document.results {
            let rss = try #require(result.summaries["max_rss"]).median
            let rssTitle = try #require(page.titles(startingWith: "\(result.label), max RSS, median of 20 runs: ").first)
            #expect(rssTitle.contains(": \(Int(rss)) B ("))
            let faults = try #require(result.summaries["minor_faults"]).median
            #expect(page.titles(startingWith: "\(result.label), minor faults, median of 20 runs: \(Int(faults)) ").count == 1)
            try expectTitle(
                "\(result.label), user CPU, median of 20 runs: ", in: page, equals: try #require(result.summaries["user_cpu"]).median)
            try expectTitle(
                "\(result.label), system CPU, median of 20 runs: ", in: page, equals: try #require(result.summaries["system_cpu"]).median)
        }
    }

    /// Exactly one title starts with `prefix`, and its time is `value` to the nanosecond.
    private func expectTitle(_ prefix: String, in page: MarkupInspection, equals value: Double) throws {
        let titles = page.titles(startingWith: prefix)
        try #require(titles.count == 1, "\(titles.count) titles start with '\(prefix)'")
        let shown = try #require(nanoseconds(inHoverText: titles[0]), "no time in '\(titles[0])'")
        #expect(abs(shown - value) <= 0.5, "'\(titles[0])' is not \(value) ns")
    }
}
