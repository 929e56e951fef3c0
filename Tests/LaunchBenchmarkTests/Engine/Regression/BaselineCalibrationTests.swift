import Testing

@testable import LaunchBenchmark
@testable import LaunchEngine

/// Baselines compared relative to launchprof's own calibration workload when
/// no reference is named (docs/calibration.md).
@Suite("Baseline comparison relative to the calibration")
struct BaselineCalibrationTests {
    typealias Fixture = BaselineComparerTests
    static let calibration = Calibration.targetName

    /// `app` and the calibration, both scaled by `speed`; `spikes` calibration
    /// runs (every fifth) took four times as long, as single short launches
    /// do on a busy machine.
    static func document(
        app: Double, speed: Double = 1, seed: Int = 0, spikes: Bool = false, calibrated: Bool = true
    )
        -> ResultsDocument
    {
        var calibrationTimes = Fixture.times(6 * speed, seed: seed + 1)
        if spikes { for index in stride(from: 2, to: calibrationTimes.count, by: 5) { calibrationTimes[index] *= 4 } }
        var results = [BudgetTests.result("app", times: Fixture.times(app * speed, seed: seed))]
        if calibrated { results.append(BudgetTests.result(calibration, times: calibrationTimes)) }
        var document = Fixture.document(results)
        if calibrated { document.calibration = calibration }
        return document
    }

    @Test("the machine 30% slower: the app is unchanged relative to the calibration, and the calibration's change is drift")
    func driftIsDrift() throws {
        let comparison = BaselineComparer().compare(
            baseline: Self.document(app: 100), current: Self.document(app: 100, speed: 1.3, seed: 3), baselineName: "main")
        #expect(comparison.reference == Self.calibration)
        let change = try #require(comparison.changes.first { $0.target == "app" })
        #expect(change.verdict == .unchanged, "\(change.summary)")
        #expect(change.reference == Self.calibration)
        #expect(comparison.changes.allSatisfy { $0.target != Self.calibration }, "the calibration never gates")
        #expect(comparison.drift?.first?.target == Self.calibration)
        #expect(comparison.drift?.first?.verdict == .regressed)
        #expect(comparison.regressions.isEmpty)
    }

    @Test("20% slower while the calibration is not: a regression, also when single calibration runs spike 4x")
    func regressionDespiteSpikes() throws {
        let comparison = BaselineComparer().compare(
            baseline: Self.document(app: 100, spikes: true), current: Self.document(app: 120, seed: 5, spikes: true),
            baselineName: "main")
        let change = try #require(comparison.changes.first { $0.target == "app" })
        #expect(change.verdict == .regressed, "\(change.summary)")
        #expect(change.change > 0.15 && change.change < 0.25, "the median of the rounds around each run, not the spike")
    }

    @Test("the calibration alone twice as fast, the app unchanged as measured: drift, not a regression")
    func calibrationDriftIsNoVerdict() throws {
        var now = Self.document(app: 100, seed: 3)
        now.results[1] = BudgetTests.result(Self.calibration, times: Fixture.times(3, seed: 4))
        let comparison = BaselineComparer().compare(baseline: Self.document(app: 100), current: now, baselineName: "main")
        let change = try #require(comparison.changes.first { $0.target == "app" })
        #expect(change.change > 0.5, "relative to the calibration it looks +100%")
        #expect(change.verdict == .unchanged, "but as measured nothing changed: \(change.summary)")
        #expect(comparison.drift?.first?.verdict == .improved)
    }

    @Test("a named reference wins over the calibration; a baseline without calibration runs is compared as measured, with a warning")
    func precedence() throws {
        var named = Self.document(app: 100)
        named.results.append(BudgetTests.result("ref", times: Fixture.times(50, seed: 9)))
        named.reference = "ref"
        let withReference = BaselineComparer().compare(baseline: named, current: named, baselineName: "main")
        #expect(withReference.reference == "ref")

        let old = BaselineComparer().compare(
            baseline: Self.document(app: 100, calibrated: false), current: Self.document(app: 100, speed: 1.3, seed: 3),
            baselineName: "main")
        #expect(old.reference == nil)
        #expect(old.warnings.contains { $0.message.contains("the baseline has no calibration runs") })
    }

    @Test("a session calibrates by default only when it compares or saves a baseline without a reference")
    func whenCalibrated() throws {
        let plan = BenchmarkPlan(targets: [LaunchTarget(name: "app", arguments: ["/bin/true"])])
        var settings = BenchmarkSettings()
        #expect(!BenchmarkSession(plan: plan, settings: settings).calibrates)
        settings.saveBaseline = "main"
        #expect(BenchmarkSession(plan: plan, settings: settings).calibrates)
        settings.reference = "app"
        #expect(!BenchmarkSession(plan: plan, settings: settings).calibrates)
        settings.reference = nil
        settings.calibrate = false
        #expect(!BenchmarkSession(plan: plan, settings: settings).calibrates)
        let calibrated = plan.calibrated()
        #expect(calibrated.targets.last?.name == Self.calibration)
        #expect(calibrated.targets.last?.arguments.first == "/bin/sh")
    }
}
