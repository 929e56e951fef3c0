import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// `--svg-dir`: each chart as a standalone SVG file, and summary.md linking them.
@Suite struct HTMLReportChartFileTests {
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = TraceTestSupport.temporaryPath("charts")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    @Test func everyChartIsAStandaloneSVGThatTheSummaryLinks() throws {
        try withDirectory { directory in
            let written = try HTMLReport(document: ReportFixtures.document()).writeCharts(to: "\(directory)/new/dir")
            let names = written.map { URL(fileURLWithPath: $0).lastPathComponent }
            #expect(
                names == [
                    "1-hello-c-timeline-warm.svg", "1-hello-c-distribution.svg", "2-sample-app-timeline-warm.svg",
                    "2-sample-app-distribution.svg", "resources.svg", "summary.md",
                ])
            let summary = try String(contentsOfFile: written.last!, encoding: .utf8)
            for file in written.dropLast() {
                let svg = try String(contentsOfFile: file, encoding: .utf8)
                let parsed = MarkupInspection.parse(svg)
                #expect(parsed.error == nil, "\(file): \(parsed.error ?? "")")
                #expect(parsed.elements.first?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
                #expect(summary.contains("](\(URL(fileURLWithPath: file).lastPathComponent))"))
            }
            #expect(summary.contains("## sample-app") && summary.contains("| Target | Mode |"))
            // Whole files only: no temporary file is left beside them.
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(directory)/new/dir").allSatisfy { !$0.contains(".tmp-") })
        }
    }

    @Test func emptyResultsGiveASummaryThatSaysSo() throws {
        try withDirectory { directory in
            var document = ReportFixtures.document()
            document.results = []
            let written = try HTMLReport(document: document).writeCharts(to: directory)
            #expect(written.map { URL(fileURLWithPath: $0).lastPathComponent } == ["summary.md"])
            #expect(try String(contentsOfFile: written[0], encoding: .utf8).contains("nothing was measured"))
        }
    }

    @Test func aDirectoryThatCannotBeMadeIsNamed() throws {
        do {
            try HTMLReport(document: ReportFixtures.document()).writeCharts(to: "/proc/launchprof-charts")
            Issue.record("wrote into /proc")
        } catch {
            #expect(error.description.hasPrefix("cannot create the chart directory '/proc/launchprof-charts'"))
        }
    }
}
