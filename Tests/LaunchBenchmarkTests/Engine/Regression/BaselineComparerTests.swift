import Foundation
import LaunchBenchmark
import Testing

@Suite("Baseline comparison")
struct BaselineComparerTests {
    /// 30 launch times around `center` ms with a deterministic spread of ±3%.
    static func times(_ center: Double, count: Int = 30, seed: Int = 0) -> [Double] {
        (0..<count).map { index in
            let wiggle: Double = sin(Double(index * 7 + seed))
            return center * 1e6 * (1 + 0.03 * wiggle)
        }
    }

    static func document(
        _ results: [BenchmarkResult], version: String = launchprofVersion, host: String = "ci", reference: String? = nil
    ) -> ResultsDocument {
        ResultsDocument(
            toolVersion: version, date: "2026-11-23T00:00:00Z", commandLine: ["launchprof", "run"],
            machine: MachineDescription(hostname: host, kernel: "6.1", cpuModel: "cpu", cpuCount: 2, memoryBytes: 1 << 34),
            reference: reference, results: results)
    }

    @Test("a 20% slowdown is a regression; the same times are not; a 20% speed-up is an improvement")
    func verdicts() throws {
        let base = Self.document([BudgetTests.result("app", times: Self.times(100))])
        let comparer = BaselineComparer()
        let slower = comparer.compare(
            baseline: base, current: Self.document([BudgetTests.result("app", times: Self.times(120, seed: 3))]), baselineName: "main")
        let change = try #require(slower.changes.first)
        #expect(change.verdict == .regressed)
        #expect(change.change > 0.15 && change.change < 0.25)
        #expect(change.changeLow <= change.change && change.change <= change.changeHigh)
        #expect(change.pValue < 0.001)
        #expect(slower.warnings.isEmpty, "\(slower.warnings)")

        let same = comparer.compare(baseline: base, current: base, baselineName: "main")
        #expect(same.changes.first?.verdict == .unchanged)
        #expect(same.changes.first?.pValue == 1 || (same.changes.first?.pValue ?? 0) > 0.5)

        let faster = comparer.compare(
            baseline: base, current: Self.document([BudgetTests.result("app", times: Self.times(80, seed: 5))]), baselineName: "main")
        #expect(faster.changes.first?.verdict == .improved)
        #expect(faster.regressions.isEmpty && faster.improvements.count == 1)
    }

    @Test("both conditions: significant but within the threshold, or beyond it but not significant, is no regression")
    func bothConditions() throws {
        let base = Self.document([BudgetTests.result("app", times: (0..<40).map { 100e6 + Double($0) * 1e3 })])
        // +3%, every run slower: highly significant, below the 5% threshold.
        let small = Self.document([BudgetTests.result("app", times: (0..<40).map { 103e6 + Double($0) * 1e3 })])
        let smallChange = try #require(BaselineComparer().compare(baseline: base, current: small, baselineName: "b").changes.first)
        #expect(smallChange.pValue < 0.01)
        #expect(smallChange.verdict == .unchanged)
        // With a 2% threshold it is a regression.
        #expect(
            BaselineComparer(threshold: 0.02).compare(baseline: base, current: small, baselineName: "b").changes.first?.verdict
                == .regressed)
        // Median +10% from three runs each: not significant at 0.01.
        let few = Self.document([BudgetTests.result("app", times: [100e6, 90e6, 120e6])])
        let fewer = Self.document([BudgetTests.result("app", times: [110e6, 95e6, 125e6])])
        let noisy = try #require(BaselineComparer().compare(baseline: few, current: fewer, baselineName: "b").changes.first)
        #expect(noisy.change > 0.05)
        #expect(noisy.verdict == .unchanged)
    }

    @Test("budget metrics are checked with their thresholds; exit and ready are one check for exiting programs")
    func checks() throws {
        let budgets = [
            Budget(target: "app", metric: .wallToExit, statistic: .p50, limit: .ratio(2, reference: "c"), threshold: 0.10),
            Budget(target: "app", metric: .maxRSS, statistic: .max, limit: .absolute(Quantity(value: 1e9, unit: .bytes))),
        ]
        let checks = BaselineComparer(budgets: budgets).checks(for: BudgetTests.result("app", times: [1]))
        #expect(checks.count == 2)
        #expect(checks[0].metric == .wallToReady && checks[0].threshold == 0.10)
        #expect(checks[1].metric == .maxRSS && checks[1].statistic == .max)
    }

    @Test("another machine, another version, missing targets: warnings, still compared")
    func provenance() throws {
        let base = Self.document(
            [BudgetTests.result("app", times: Self.times(100)), BudgetTests.result("gone", times: Self.times(5))],
            version: "0.0.9", host: "laptop")
        let now = Self.document([BudgetTests.result("app", times: Self.times(100)), BudgetTests.result("new", times: Self.times(5))])
        let comparison = BaselineComparer().compare(baseline: base, current: now, baselineName: "old")
        #expect(comparison.changes.count == 1)
        let text = comparison.warnings.map(\.message).joined(separator: "\n")
        #expect(text.contains("another machine (host laptop vs ci)"), "\(text)")
        #expect(text.contains("launchprof 0.0.9"), "\(text)")
        #expect(text.contains("new (warm) is not in the baseline"), "\(text)")
        #expect(text.contains("gone (warm) is in the baseline but was not measured now"), "\(text)")

        var changed = now
        changed.results[0].target.environment = ["MODE": "fast", "SAME": "1"]
        var before = base
        before.results[0].target.environment = ["SAME": "1", "OLD": "x"]
        let environment = BaselineComparer().compare(baseline: before, current: changed, baselineName: "old")
        #expect(
            environment.warnings.contains(
                ResultWarning(.baselineDiffers, "app (warm) ran with another environment in the baseline (MODE, OLD differ)")),
            "\(environment.warnings)")
    }

    @Test("verdict exit status: 0 clean, 1 budget or regression, 3 failed launch")
    func exitStatus() throws {
        var document = Self.document([BudgetTests.result("app", times: Self.times(100))])
        #expect(GateVerdict(document).exitStatus == .success)
        let base = Self.document([BudgetTests.result("app", times: Self.times(50))])
        document.comparison = BaselineComparer().compare(baseline: base, current: document, baselineName: "b")
        #expect(GateVerdict(document).exitStatus == .gateFailed)
        document.comparison = nil
        let budget = Budget(target: "app", metric: .wallToExit, limit: .absolute(Quantity(value: 1e6, unit: .nanoseconds)))
        document.budgets = BudgetEvaluator(budgets: [budget]).evaluate(document.results)
        #expect(GateVerdict(document).exitStatus == .gateFailed)
        #expect(GateVerdict.headline(document) == "1 of 1 budget exceeded")
        document.results[0].runs[0].exit = .timedOut
        #expect(GateVerdict(document).exitStatus == .launchFailed)
    }
}
