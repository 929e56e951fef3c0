import LaunchBenchmark
import Testing

/// Baselines compared relative to a reference target measured on both sides.
@Suite("Baseline comparison relative to a reference")
struct BaselineReferenceTests {
    typealias Fixture = BaselineComparerTests

    /// `app` and the reference `ref`, both scaled by `speed` (1.3 = the machine 30% slower).
    static func document(app: Double, ref: Double = 50, speed: Double = 1, seed: Int = 0, reference: String? = "ref") -> ResultsDocument {
        Fixture.document(
            [
                BudgetTests.result("ref", times: Fixture.times(ref * speed, seed: seed + 1)),
                BudgetTests.result("app", times: Fixture.times(app * speed, seed: seed)),
            ], reference: reference)
    }

    @Test("the machine 30% slower on both targets: no regression relative to the reference; as measured, two")
    func driftIsTakenOut() throws {
        let base = Self.document(app: 100)
        let now = Self.document(app: 100, speed: 1.3, seed: 3)
        let comparison = BaselineComparer().compare(baseline: base, current: now, baselineName: "main")
        #expect(comparison.reference == "ref")
        let change = try #require(comparison.changes.first)
        #expect(comparison.changes.count == 1, "the reference is not among the changes")
        #expect(change.target == "app" && change.reference == "ref")
        #expect(change.verdict == .unchanged, "\(change.summary)")
        #expect(abs(change.change) < 0.03)
        #expect(change.changeLow <= change.change && change.change <= change.changeHigh)
        #expect(try #require(change.measuredChange) > 0.25)
        #expect(change.summary.contains("measured; relative to ref"), "\(change.summary)")
        let drift = try #require(comparison.drift?.first)
        #expect(drift.target == "ref" && drift.verdict == .regressed && drift.reference == nil)
        #expect(comparison.regressions.isEmpty, "the reference's own change never gates")
        var document = now
        document.comparison = comparison
        #expect(GateVerdict(document).exitStatus == .success)

        let absolute = BaselineComparer(relativeToReference: false).compare(baseline: base, current: now, baselineName: "main")
        #expect(absolute.reference == nil && absolute.drift == nil)
        #expect(absolute.regressions.map(\.target) == ["ref", "app"])
    }

    @Test("the target 20% slower while the reference is not: a regression of +20% relative to it")
    func realRegression() throws {
        let comparison = BaselineComparer().compare(
            baseline: Self.document(app: 100), current: Self.document(app: 120, seed: 5), baselineName: "main")
        let change = try #require(comparison.changes.first)
        #expect(change.verdict == .regressed)
        #expect(change.change > 0.15 && change.change < 0.25)
        #expect(change.pValue < 0.001)
        #expect(comparison.drift?.first?.verdict == .unchanged)
    }

    @Test("a slower machine hides no regression: +20% in the target on a machine 30% slower is still +20% relative")
    func regressionUnderDrift() throws {
        let comparison = BaselineComparer().compare(
            baseline: Self.document(app: 100), current: Self.document(app: 120, speed: 1.3, seed: 5), baselineName: "main")
        let change = try #require(comparison.changes.first)
        #expect(change.verdict == .regressed)
        #expect(change.change > 0.15 && change.change < 0.25, "\(change.summary)")
        // And a faster machine does not pass off a regression as an improvement.
        let faster = BaselineComparer().compare(
            baseline: Self.document(app: 100), current: Self.document(app: 120, speed: 0.7, seed: 5), baselineName: "main")
        #expect(faster.changes.first?.verdict == .regressed)
        #expect(try #require(faster.changes.first?.measuredChange) < 0)
    }

    @Test("counts and bytes are compared as measured; times relative to the reference")
    func onlyTimesAreRelative() throws {
        var base = Self.document(app: 100)
        var now = Self.document(app: 100, speed: 1.3, seed: 3)
        for index in base.results.indices {
            for run in base.results[index].runs.indices { base.results[index].runs[run].majorFaults = 10 }
            for run in now.results[index].runs.indices { now.results[index].runs[run].majorFaults = 20 }
        }
        let comparer = BaselineComparer(defaultChecks: [RegressionCheck(metric: .wallToReady), RegressionCheck(metric: .majorFaults)])
        let comparison = comparer.compare(baseline: base, current: now, baselineName: "main")
        let time = try #require(comparison.changes.first { $0.metric == "wall_to_ready" })
        let faults = try #require(comparison.changes.first { $0.metric == "major_faults" })
        #expect(time.reference == "ref" && time.verdict == .unchanged)
        #expect(faults.reference == nil && faults.verdict == .regressed && abs(faults.change - 1) < 1e-9)
    }

    @Test("a reference missing from the baseline or never launched: a warning, and times compared as measured")
    func missingReference() throws {
        let base = Fixture.document([BudgetTests.result("app", times: Fixture.times(100))])
        let now = Self.document(app: 130, seed: 3)
        let comparison = BaselineComparer().compare(baseline: base, current: now, baselineName: "main")
        #expect(comparison.reference == nil && comparison.drift == nil)
        #expect(comparison.changes.first?.reference == nil)
        #expect(comparison.changes.first?.verdict == .regressed)
        #expect(
            comparison.warnings.contains {
                $0.kind == .notCompared
                    && $0.message.contains("the reference ref (warm) is not in the baseline, so times are compared as measured")
            }, "\(comparison.warnings)")

        var failed = Self.document(app: 100)
        for run in failed.results[0].runs.indices { failed.results[0].runs[run].exit = .signaled(9) }
        let unlaunched = BaselineComparer().compare(baseline: failed, current: now, baselineName: "main")
        #expect(unlaunched.reference == nil)
        #expect(
            unlaunched.warnings.contains { $0.message.contains("the reference ref (warm) has no successful run on the baseline's side") },
            "\(unlaunched.warnings)")
    }

    @Test("runs are paired with the reference's run of the same round: drift within a run cancels too")
    func pairedByRound() throws {
        // The machine slows down steadily through both runs (x1 to x1.5);
        // app and ref, interleaved, see the same slowdown round by round.
        func drifting(app: Double) -> ResultsDocument {
            let ramp = (0..<30).map { 1 + 0.5 * Double($0) / 29 }
            return Fixture.document(
                [
                    BudgetTests.result("ref", times: zip(Fixture.times(50, seed: 1), ramp).map { $0 * $1 }),
                    BudgetTests.result("app", times: zip(Fixture.times(app, seed: 4), ramp).map { $0 * $1 }),
                ], reference: "ref")
        }
        let same = BaselineComparer().compare(baseline: drifting(app: 100), current: drifting(app: 100), baselineName: "b")
        #expect(same.changes.first?.verdict == .unchanged)
        let slower = try #require(
            BaselineComparer().compare(baseline: drifting(app: 100), current: drifting(app: 110), baselineName: "b").changes.first)
        #expect(slower.verdict == .regressed, "\(slower.summary)")
        #expect(abs(slower.change - 0.10) < 0.02, "\(slower.summary)")
        // A run of the target with no reference run of the same index is left out.
        var missing = drifting(app: 110)
        missing.results[0].runs.removeLast(10)
        let paired = try #require(
            BaselineComparer().compare(baseline: drifting(app: 100), current: missing, baselineName: "b").changes.first)
        #expect(paired.currentRuns == 30 && paired.reference == "ref")
        #expect(paired.verdict == .regressed)
    }

    @Test("reports show the drift and say what the changes are relative to")
    func reports() throws {
        var document = Self.document(app: 100, speed: 1.3, seed: 3)
        document.comparison = BaselineComparer().compare(baseline: Self.document(app: 100), current: document, baselineName: "main")
        let terminal = try TerminalReport(colour: false).export(document)
        #expect(terminal.contains("unchanged  app (warm) wall_to_ready p50"), "\(terminal)")
        #expect(terminal.contains("drift      ref (warm) wall_to_ready p50"), "\(terminal)")
        #expect(terminal.contains("times are compared relative to ref, measured in both runs"), "\(terminal)")
        #expect(terminal.contains("PASSED: no regression against main"), "\(terminal)")
        let markdown = try MarkdownExporter().export(document)
        #expect(markdown.contains("| ↔ drift | ref | warm | wall_to_ready p50 |"), "\(markdown)")
        #expect(markdown.contains(" vs ref ("), "\(markdown)")
        #expect(markdown.contains("Times are compared relative to ref"), "\(markdown)")
        let junit = try JUnitExporter().export(document)
        #expect(junit.contains(#"<testsuite name="regressions against main" tests="1" failures="0""#), "\(junit)")
    }
}
