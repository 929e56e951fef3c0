import Foundation
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// Budgets and baselines in the report: budget lines on their strips, the
/// baseline's runs beside the current ones, changes with interval, p-value
/// and a verdict that does not rely on colour.
@Suite struct HTMLReportGateTests {
    /// The fixture's sample-app 42% slower than in this baseline.
    private func baseline() -> ResultsDocument {
        var baseline = ReportFixtures.document()
        baseline.date = "2026-11-01T10:00:00Z"
        baseline.results[1] = Summarizer().summarize(
            BenchmarkResult(
                target: baseline.results[1].target, mode: .warm, runs: ReportFixtures.runs(ms: 10, milestones: true)))
        return baseline
    }

    @Test func aGivenBaselineIsComparedMetricByMetricAndDrawnBeside() throws {
        let current = ReportFixtures.document()
        let report = HTMLReport(
            document: current, baseline: baseline(), comparison: current.comparison(against: baseline(), named: "main"))
        let html = report.html()
        let page = MarkupInspection.parse(html)
        #expect(page.error == nil, "\(page.error ?? "")")
        #expect(page.elements(named: "svg").contains { $0.attributes["id"] == "changes" })
        #expect(page.titles(startingWith: "sample-app (baseline warm), time to ready, run ").count == 20)
        let changes = try #require(report.comparison?.changes)
        // Times relative to the reference, hello-c, whose own change is drift.
        #expect(changes.map(\.metric) == ["wall_to_ready", "process_entry", "main", "milestone:config loaded"])
        #expect(changes.allSatisfy { $0.target == "sample-app" && $0.reference == "hello-c" })
        #expect(report.comparison?.drift?.map(\.target) == ["hello-c"])
        #expect(html.contains("Times are compared relative to <code>hello-c</code>"))
        #expect(html.contains("its own change, as measured, was +0.0% (warm wall_to_ready p50) and never gates"), "\(html)")
        let ready = try #require(changes.first { $0.target == "sample-app" && $0.metric == "wall_to_ready" })
        #expect(ready.baseline == baseline().results[1].summaries["wall_to_ready"]!.median)
        #expect(ready.current == current.results[1].summaries["wall_to_ready"]!.median)
        #expect(ready.verdict == .regressed)
        // Regressed reads without colour: the word, the ▲ marker and a hatched bar.
        #expect(
            page.titles.contains {
                $0.hasPrefix("sample-app (warm), time to ready median: 10.000000 ms in the baseline (20 runs), 14.200000 ms now")
                    && $0.hasSuffix("▲ regressed")
            })
        #expect(html.contains("url(#changes-regressed)"))
        #expect(html.contains("▲ 4 regressions"))
    }

    @Test func theResultsOwnComparisonIsShownWhenNoBaselineIsGiven() throws {
        var current = ReportFixtures.document()
        current.comparison = BaselineComparer().compare(baseline: baseline(), current: current, baselineName: "nightly")
        let report = HTMLReport(document: current)
        #expect(report.comparison == current.comparison)
        let html = report.html()
        #expect(MarkupInspection.parse(html).error == nil)
        #expect(html.contains("against <code>nightly</code>"))
        #expect(!html.contains("(baseline warm)"))  // no baseline runs to draw
    }

    @Test("the results' own comparison is kept for that very baseline, and another baseline of the same date is compared afresh")
    func sameBaselineIsKnownByItsContentNotItsDate() throws {
        var current = ReportFixtures.document()
        let original = baseline()
        current.comparison = BaselineComparer(threshold: 0.5).compare(baseline: original, current: current, baselineName: "nightly")
        // Read back from JSON, as `launchprof report --baseline` reads it: still the same baseline.
        let reread = try ResultsDocument.decode(original.jsonData(), path: "nightly.json")
        #expect(current.comparison(against: reread, named: "nightly") == current.comparison)
        // Another document measured at the same time is another baseline.
        var other = original
        other.results[1] = Summarizer().summarize(
            BenchmarkResult(target: other.results[1].target, mode: .warm, runs: ReportFixtures.runs(ms: 20, milestones: true)))
        #expect(other.date == original.date)
        let fresh = current.comparison(against: other, named: "other")
        #expect(fresh != current.comparison && fresh.baseline == "other")
        #expect(fresh.changes.first { $0.target == "sample-app" && $0.metric == "wall_to_ready" }?.verdict == .improved)
    }

    @Test func budgetsAreLinesOnTheirStripsAndATable() throws {
        var document = ReportFixtures.document()
        let ready = document.results[1].summaries["wall_to_ready"]!
        document.budgets = [
            BudgetEvaluation(
                target: "sample-app", mode: .warm, metric: "wall_to_ready", statistic: .p95, limit: "<= 10.0 ms",
                limitValue: 10_000_000, observed: ready.p95, passed: false, message: "14.4 ms > 10.0 ms", source: "launchprof.yml:7"),
            BudgetEvaluation(
                target: "hello-c", mode: .warm, metric: "wall_to_exit", statistic: .p50, limit: "<= 5.00 ms",
                limitValue: 5_000_000, observed: 1_000_000, passed: true, message: "1.00 ms <= 5.00 ms"),
            BudgetEvaluation(
                target: "hello-c", mode: .warm, metric: "max_rss", statistic: .p50, limit: "<= 8.00 MiB",
                limitValue: 8 * 1_048_576, observed: 12_900_000, passed: false, message: "12.3 MiB > 8.00 MiB"),
        ]
        let html = HTMLReport(document: document).html()
        let page = MarkupInspection.parse(html)
        #expect(page.error == nil, "\(page.error ?? "")")
        #expect(page.titles.contains("sample-app (warm), time to ready, budget p95 ≤ 10.0 ms ✗ FAILED: 14.4 ms > 10.0 ms"))
        // The exit probe's time to ready is its time to exit: the budget is drawn there.
        #expect(page.titles.contains("hello-c (warm), time to ready, budget median ≤ 5.00 ms ✓: 1.00 ms <= 5.00 ms"))
        #expect(page.titles.contains("hello-c (warm), budget median ≤ 8.00 MiB ✗ FAILED: 12.3 MiB > 8.00 MiB"))
        #expect(html.contains("✗ 2 of 3 budgets failed."))
        #expect(html.contains("launchprof.yml:7"))
        #expect(page.elements(named: "section").contains { $0.attributes["id"] == "budgets" })
    }
}
