import LaunchEngine
import LaunchSupport

/// JUnit XML (`--export-junit`) for CI systems that show test results:
/// one test suite per kind of check: launches (a test case per target and
/// mode, failing when a run failed), budgets (one per budget evaluation) and
/// regressions (one per metric compared with the baseline). Failures carry
/// the numbers. The element and attribute names are those of the JUnit
/// schema that Jenkins, GitLab and GitHub test reporters read.
package struct JUnitExporter: ResultsExporter {
    /// An exporter.
    package init() {}

    package func export(_ document: ResultsDocument) throws -> String {
        var suites: [Suite] = [launches(document)]
        if let budgets = document.budgets { suites.append(self.budgets(budgets)) }
        if let comparison = document.comparison { suites.append(regressions(comparison)) }
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="launchprof" tests="\#(tests)" failures="\#(failures)" errors="0" time="\#(seconds(document))">"#,
        ]
        for suite in suites { lines += suite.xml(timestamp: document.date) }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    struct Case {
        var name: String
        var classname: String
        var seconds: Double
        /// (message, details) when the case failed.
        var failure: (message: String, details: String)?
        var output: String?
    }

    struct Suite {
        var name: String
        /// The `type` of its failures: launch, budget or regression.
        var failureType: String
        var cases: [Case]
        var failures: Int { cases.filter { $0.failure != nil }.count }

        func xml(timestamp: String) -> [String] {
            let time = cases.reduce(0) { $0 + $1.seconds }
            var lines = [
                #"  <testsuite name="\#(MarkupText.escape(name))" tests="\#(cases.count)" failures="\#(failures)" errors="0" skipped="0" "#
                    + #"time="\#(format(time))" timestamp="\#(MarkupText.escape(timestamp))">"#
            ]
            for test in cases {
                let open =
                    #"    <testcase name="\#(MarkupText.escape(test.name))" classname="\#(MarkupText.escape(test.classname))" time="\#(format(test.seconds))""#
                guard test.failure != nil || test.output != nil else {
                    lines.append(open + "/>")
                    continue
                }
                lines.append(open + ">")
                if let failure = test.failure {
                    lines.append(
                        #"      <failure message="\#(MarkupText.escape(failure.message))" type="\#(failureType)">\#(MarkupText.escape(failure.details))</failure>"#
                    )
                }
                if let output = test.output { lines.append("      <system-out>\(MarkupText.escape(output))</system-out>") }
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
            return lines
        }
    }

    private func launches(_ document: ResultsDocument) -> Suite {
        Suite(
            name: "launches", failureType: "launch",
            cases: document.results.map { result in
                let failed = result.runs.filter { !$0.exit.isSuccess }
                let seconds = result.runs.compactMap { $0.wallToExit ?? $0.wallToReady }.reduce(0) { $0 + Double($1) / 1e9 }
                var test = Case(name: result.label, classname: "launchprof.launches", seconds: seconds)
                if !failed.isEmpty {
                    test.failure = (
                        "\(failed.count) of \(result.runs.count) runs failed",
                        failed.map { "run \($0.index + 1): \($0.exit)" }.joined(separator: "\n")
                    )
                }
                if let summary = result.summaries[Metric.wallToReady.key] {
                    test.output =
                        "time to ready: median \(HumanUnits.duration(summary.median)), "
                        + "p95 \(HumanUnits.duration(summary.p95)), \(summary.count) runs"
                }
                if !result.warnings.isEmpty {
                    test.output = ([test.output].compactMap { $0 } + result.warnings.map(\.message)).joined(separator: "\n")
                }
                return test
            })
    }

    private func budgets(_ evaluations: [BudgetEvaluation]) -> Suite {
        Suite(
            name: "budgets", failureType: "budget",
            cases: evaluations.map { evaluation in
                var test = Case(
                    name: evaluation.title, classname: "launchprof.budgets.\(evaluation.target)", seconds: 0,
                    output: evaluation.message)
                if !evaluation.passed {
                    let place = evaluation.source.map { " (\($0))" } ?? ""
                    test.failure = ("budget exceeded: \(evaluation.message)", "\(evaluation.title)\(place): \(evaluation.message)")
                }
                return test
            })
    }

    private func regressions(_ comparison: BaselineComparison) -> Suite {
        Suite(
            name: "regressions against \(comparison.baseline)", failureType: "regression",
            cases: comparison.changes.map { change in
                var test = Case(
                    name: change.title, classname: "launchprof.regressions.\(change.target)", seconds: 0,
                    output: "\(change.verdict.rawValue): \(change.summary)")
                if change.verdict == .regressed {
                    test.failure = (
                        "regressed \(change.changeText), \(change.pValueText)",
                        "\(change.title): \(change.summary); threshold \(MetricChange.percent(change.threshold)), "
                            + "significance \(change.significance), "
                            + "\(change.baselineRuns) baseline and \(change.currentRuns) current runs"
                    )
                }
                return test
            })
    }

    private func seconds(_ document: ResultsDocument) -> String {
        format(document.results.flatMap(\.runs).compactMap { $0.wallToExit ?? $0.wallToReady }.reduce(0) { $0 + Double($1) / 1e9 })
    }
}

private func format(_ seconds: Double) -> String { HumanUnits.fixed(seconds, decimals: 6) }
