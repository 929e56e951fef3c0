import Foundation
import LaunchBenchmark
import Synchronization
import Testing

/// A scripted executor: each run's time comes from `time(side, cpu, index)`,
/// its CPU from a seeded generator; no process is started.
final class ScriptedGateExecutor: RunExecutor, Sendable {
    let state: Mutex<(generator: SeededGenerator, runs: Int)>
    let time: @Sendable (_ head: Bool, _ cpu: Int, _ run: Int) -> Double?
    let cpus: Int
    /// With counts: each run's instructions (nil: not counted).
    let instructions: (@Sendable (_ head: Bool, _ run: Int) -> UInt64)?

    init(
        seed: UInt64, cpus: Int = 2, instructions: (@Sendable (_ head: Bool, _ run: Int) -> UInt64)? = nil,
        time: @escaping @Sendable (_ head: Bool, _ cpu: Int, _ run: Int) -> Double?
    ) {
        state = Mutex((SeededGenerator(seed: seed), 0))
        self.time = time
        self.cpus = cpus
        self.instructions = instructions
    }

    func execute(_ context: RunContext) throws -> ObservedRun {
        let (cpu, run) = state.withLock { state in
            state.runs += 1
            return (Int.random(in: 0..<cpus, using: &state.generator), state.runs)
        }
        guard let value = time(context.target.name == "head", cpu, run) else {
            return ObservedRun(pid: 1, exit: .exited(1), usage: ResourceUsage())
        }
        var observed = ObservedRun(pid: 1, wallToReady: UInt64(value), wallToExit: UInt64(value), exit: .exited(0), usage: ResourceUsage())
        observed.cpu = cpu
        if let instructions { observed.counts = LaunchCounts(instructions: instructions(context.target.name == "head", run)) }
        return observed
    }

    /// A multiplicative noise of ±`spread` from the run number (deterministic).
    static func noise(_ run: Int, _ spread: Double) -> Double {
        var generator = SeededGenerator(seed: UInt64(run) &* 7919)
        return 1 + Double.random(in: -spread...spread, using: &generator)
    }
}

@Suite("Gate runner, scripted")
struct GateRunnerTests {
    let base = LaunchTarget(name: "base", arguments: ["/bin/true"])
    let head = LaunchTarget(name: "head", arguments: ["/bin/true"])

    func runner(_ executor: some RunExecutor, threshold: Double = 0.02, maxPairs: Int = 1000) throws -> GateRunner {
        GateRunner(
            base: base, head: head, rule: try SequentialDecisionRule(threshold: threshold, maxPairs: maxPairs),
            executor: executor)
    }

    @Test("a head 10% slower, on two CPUs of different speed, is regressed")
    func regressed() throws {
        let executor = ScriptedGateExecutor(seed: 1) { head, cpu, run in
            (cpu == 0 ? 3_150_000 : 3_900_000) * (head ? 1.10 : 1) * ScriptedGateExecutor.noise(run, 0.02)
        }
        let measurement = try runner(executor).run()
        #expect(measurement.verdict == .regressed)
        #expect(measurement.stop == .decided)
        #expect(measurement.exitStatus == .gateFailed)
        let change = try #require(measurement.final?.change)
        #expect(abs(change - 0.10) < 0.02)
        #expect(Set(measurement.pairsByCPU.keys) == [0, 1])
        #expect(measurement.baseRuns.count >= 10 && measurement.headRuns.count >= 10)
        #expect(measurement.growthToResolve(threshold: 0.02) == nil)
    }

    @Test("a launch that spans CPUs pairs neighbours on any CPU: no run is left out, and the report counts the pairs across CPUs")
    func neighbours() throws {
        // Whichever CPU the main thread ended on, the launch takes the same.
        let executor = ScriptedGateExecutor(seed: 6) { head, _, run in
            12_000_000 * (head ? 1.10 : 1) * ScriptedGateExecutor.noise(run, 0.05)
        }
        var gate = try runner(executor)
        gate.sameCPUPairs = false
        let measurement = gate.run()
        #expect(measurement.verdict == .regressed)
        let runs = measurement.baseRuns.count + measurement.headRuns.count
        #expect(measurement.unpaired == 0)
        #expect(try #require(measurement.final).pairs == runs / 2)
        let across = try #require(measurement.pairsAcrossCPUs)
        #expect(across > 0 && across < runs / 2)
        let document = GateDocument(
            base: "base", head: "head", mode: .warm, rule: gate.rule, measurement: measurement, summary: "")
        #expect(document.pairsAcrossCPUs == across)
        #expect(GateReport.text(document).contains("pairs by CPU (neighbours paired on any CPU: the launch spans CPUs): "))
        #expect(GateReport.text(document).contains("across CPUs: \(across); 0 runs unpaired"))
        // The default pairs on the same CPU only, and says nothing of across.
        #expect(try runner(executor).run().pairsAcrossCPUs == nil)
    }

    @Test("the same program on both sides is unchanged, and the noise floor is near zero")
    func unchanged() throws {
        let executor = ScriptedGateExecutor(seed: 2) { _, cpu, run in
            (cpu == 0 ? 3_150_000 : 3_900_000) * ScriptedGateExecutor.noise(run, 0.02)
        }
        let measurement = try runner(executor).run()
        #expect(measurement.verdict == .unchanged)
        #expect(measurement.exitStatus == .success)
        let floor = try #require(measurement.noiseFloor)
        #expect(abs(floor.change) < 0.01)
        #expect(floor.minimumDetectableEffect < 0.02)
    }

    @Test("a head 10% faster is improved")
    func improved() throws {
        let executor = ScriptedGateExecutor(seed: 3) { head, _, run in
            2_000_000 * (head ? 0.90 : 1) * ScriptedGateExecutor.noise(run, 0.02)
        }
        let measurement = try runner(executor).run()
        #expect(measurement.verdict == .improved)
        #expect(measurement.exitStatus == .success)
    }

    @Test("a change on the threshold with a small budget is inconclusive, and says what it could resolve")
    func inconclusive() throws {
        let executor = ScriptedGateExecutor(seed: 4) { head, _, run in
            2_000_000 * (head ? 1.02 : 1) * ScriptedGateExecutor.noise(run, 0.10)
        }
        let measurement = try runner(executor, maxPairs: 40).run()
        #expect(measurement.verdict == .inconclusive)
        #expect(measurement.exitStatus == .inconclusive)
        let resolvable = try #require(measurement.smallestResolvable(threshold: 0.02))
        #expect(resolvable > 0.02)
    }

    /// `gate` with a scripted clock that moves `nanoseconds` at each
    /// reading, and a time budget of `budget`.
    func ticking(_ gate: GateRunner, every nanoseconds: UInt64, budget: Duration) -> GateRunner {
        var gate = gate
        let ticks = Mutex<UInt64>(0)
        gate.clock = {
            ticks.withLock {
                $0 += nanoseconds
                return $0
            }
        }
        gate.maxTime = budget
        return gate
    }

    @Test("the time budget ends the gate with a closing look")
    func timeBudget() throws {
        let executor = ScriptedGateExecutor(seed: 5) { head, _, run in
            2_000_000 * (head ? 1.02 : 1) * ScriptedGateExecutor.noise(run, 0.10)
        }
        // Each reading of the clock is 0.1 s later: 10 s is about 100 runs.
        let measurement = try ticking(runner(executor), every: 100_000_000, budget: .seconds(10)).run()
        #expect(measurement.stop == .maxTime(.seconds(10)))
        #expect(measurement.verdict == .inconclusive)
        #expect(measurement.exitStatus == .inconclusive)
        #expect(measurement.baseRuns.count + measurement.headRuns.count < 120)
    }

    @Test("with a time budget the error is spent by the share of it elapsed, and all of it by the closing look")
    func spentByTime() throws {
        let executor = ScriptedGateExecutor(seed: 5) { head, _, run in
            2_000_000 * (head ? 1.02 : 1) * ScriptedGateExecutor.noise(run, 0.10)
        }
        let gate = try runner(executor)
        let measurement = ticking(gate, every: 100_000_000, budget: .seconds(10)).run()
        #expect(measurement.stop == .maxTime(.seconds(10)))
        let first = try #require(measurement.looks.first)
        // 20 pairs of at most 1000 spend α(0.02) by pairs; by then more
        // than a third of the 10 s had gone, so the look spends more.
        #expect(first.pairs == 20)
        #expect(first.confidence < gate.rule.confidence(ofLook: 0) - 0.005, "\(first.confidence)")
        #expect(first.confidence < 1 - gate.rule.spending.cumulative(alpha: 0.05, at: 0.3))
        // Every look and the closing one together spend α exactly.
        let spent = measurement.looks.map { 1 - $0.confidence }.reduce(0, +)
        #expect(abs(spent - 0.05) < 1e-9, "\(spent)")
        // Without a budget, only pairs count.
        let untimed = gate.run()
        #expect(untimed.looks.first?.confidence == gate.rule.confidence(ofLook: 0))
    }

    @Test("a budget that ends with no pair since the last look takes no closing look: the last one stands, inconclusive")
    func noClosingLookWithoutNewPairs() throws {
        // One CPU, so each ABBA block gives two pairs: 20 pairs after 40
        // measured runs, 44 with the 4 warm-ups. The clock stands still
        // until then and jumps past the budget at once, so the look at 20
        // pairs spends all of α (t = 1) and the budget ends before another
        // run.
        let executor = ScriptedGateExecutor(seed: 8, cpus: 1) { head, _, run in
            2_000_000 * (head ? 1.02 : 1) * ScriptedGateExecutor.noise(run, 0.10)
        }
        var gate = try runner(executor)
        gate.maxTime = .seconds(10)
        gate.clock = { executor.state.withLock { $0.runs } >= 44 ? 11_000_000_000 : 0 }
        let measurement = gate.run()
        #expect(measurement.stop == .maxTime(.seconds(10)))
        #expect(measurement.looks.count == 1)
        let last = try #require(measurement.final)
        #expect(last.pairs == 20)
        #expect(abs(last.confidence - 0.95) < 1e-9)
        #expect(last.verdict == .inconclusive)
        #expect(measurement.verdict == .inconclusive)
    }

    @Test("an inconclusive gate projects the measuring that would narrow its interval to the estimate's distance from the threshold")
    func projection() throws {
        let executor = ScriptedGateExecutor(seed: 4) { head, _, run in
            2_000_000 * (head ? 1.02 : 1) * ScriptedGateExecutor.noise(run, 0.10)
        }
        // Each reading of the clock is 10 ms later: 3 s is about 150 pairs,
        // too few to place a change on the threshold.
        let measurement = try ticking(runner(executor), every: 10_000_000, budget: .seconds(3)).run()
        #expect(measurement.verdict == .inconclusive)
        let final = try #require(measurement.final)
        let growth = try #require(measurement.growthToResolve(threshold: 0.02))
        let faces = final.change > 0.02 || (final.change < 0 && final.change >= -0.02)
        let ratio = (faces ? final.change - final.low : final.high - final.change) / abs(abs(final.change) - 0.02)
        #expect(abs(growth - max(1, ratio * ratio)) < 1e-9)
        var document = GateDocument(
            base: "base", head: "head", mode: .warm, rule: try SequentialDecisionRule(threshold: 0.02, maxPairs: 1000),
            measurement: measurement, summary: "")
        #expect(document.timeToResolve == growth * measurement.elapsed)
        let line = try #require(GateReport.resolving(document))
        #expect(line.hasPrefix("to decide: the estimate lies "), "\(line)")
        #expect(line.contains("pairs a second) the interval would narrow that far after about "), "\(line)")
        #expect(line.contains("(docs/gate.md, \"Pinning\")"), "\(line)")
        // The terminal indents it under the verdict; what a pull request
        // shows says it too.
        #expect(GateReport.text(document).contains("\n  to decide: the estimate lies "))
        #expect(GateExports.markdown(document).contains("\nTo decide: the estimate lies "))
        let annotation = try #require(GateExports.annotations(document).first)
        #expect(annotation.hasPrefix("::warning ") && annotation.contains("%0Ato decide: the estimate lies "), "\(annotation)")
        document.timeToResolve = 170.2
        document.affinity = "0"
        let pinned = try #require(GateReport.resolving(document))
        #expect(pinned.hasSuffix("after about 2.8 min of measuring (--max-time 171)"), "\(pinned)")
        document.timeToResolve = 5 * 3600
        let far = try #require(GateReport.resolving(document))
        #expect(far.hasSuffix("5.0 h of measuring: a change this near the threshold is better judged with another --threshold"), "\(far)")
        document.timeToResolve = .infinity
        #expect(GateReport.resolving(document) == nil)
    }

    /// A launch that waits for a 4 ms tick: 17 ms plus `extra`, one step
    /// more with chance `step`, ±0.5%, from the run number (deterministic),
    /// in nanoseconds.
    static func stepped(_ run: Int, step: Double, extra: Double) -> Double {
        var generator = SeededGenerator(seed: UInt64(run) &* 104_729)
        let steps = Double.random(in: 0..<1, using: &generator) < step ? 4.0 : 0
        return (17 + extra + steps) * 1e6 * (1 + Double.random(in: -0.005...0.005, using: &generator))
    }

    @Test("a launch that moves in steps, 3% slower on average: regressed by its trimmed mean, and the summary says so")
    func steppedSlowdown() throws {
        // The head does 0.2 ms more and steps 40% of the time instead of
        // 30%: 18.8 ms against 18.2 on average, its typical pair +1.2%.
        let executor = ScriptedGateExecutor(seed: 6) { head, _, run in
            Self.stepped(run, step: head ? 0.4 : 0.3, extra: head ? 0.2 : 0)
        }
        let measurement = try runner(executor, maxPairs: 3000).run()
        #expect(measurement.verdict == .regressed)
        let final = try #require(measurement.final)
        #expect(final.low < 0.02, "the median-type interval alone would not have said regressed")
        #expect(try #require(final.trimmedLow) > 0.02)
        let summary = GateReport.summary(
            verdict: measurement.verdict, stop: measurement.stop, final: final, threshold: 0.02, elapsed: 60,
            smallestResolvable: nil)
        #expect(summary.hasPrefix("regressed: the pairs' trimmed mean +"), "\(summary)")
        #expect(summary.contains("lies above +2.0%; head +"), "\(summary)")
    }

    @Test(
        "a launch that moves in steps, unchanged, with too small a budget: the trimmed mean holds the verdict and says what would decide it"
    )
    func steppedHeld() throws {
        let executor = ScriptedGateExecutor(seed: 7) { _, _, run in Self.stepped(run, step: 0.3, extra: 0) }
        let measurement = try runner(executor, maxPairs: 300).run()
        #expect(measurement.verdict == .inconclusive)
        let final = try #require(measurement.final)
        #expect(final.low > -0.02 && final.high < 0.02, "the median-type interval alone would have said unchanged")
        #expect(final.isHeldByTrimmedMean(threshold: 0.02))
        let summary = GateReport.summary(
            verdict: measurement.verdict, stop: measurement.stop, final: final, threshold: 0.02, elapsed: 10,
            smallestResolvable: nil)
        #expect(summary.contains("lies within ±2.0% but the pairs' trimmed mean "), "\(summary)")
        #expect(summary.contains("(docs/gate.md, \"The trimmed mean's guard\")"), "\(summary)")
        // What must narrow is the trimmed mean's interval.
        let growth = try #require(measurement.growthToResolve(threshold: 0.02))
        let (change, low, high) = (try #require(final.trimmedChange), try #require(final.trimmedLow), try #require(final.trimmedHigh))
        let part = change > 0.02 || (change < 0 && change >= -0.02) ? change - low : high - change
        #expect(abs(growth - max(1, pow(part / abs(abs(change) - 0.02), 2))) < 1e-9)
        var timed = measurement
        timed.elapsed = 10
        let document = GateDocument(
            base: "base", head: "head", mode: .warm, rule: try SequentialDecisionRule(threshold: 0.02, maxPairs: 300),
            measurement: timed, summary: summary)
        #expect(document.trimming == 0.2)
        #expect(try #require(GateReport.resolving(document)).hasPrefix("to decide: the trimmed mean lies "))
        #expect(GateReport.text(document).contains("\n  trimmed mean of the pairs (the guard;"))
    }

    @Test("a budget that ends at a few pairs: no interval reaches its confidence, and no change is said resolvable")
    func tooFewPairs() throws {
        let executor = ScriptedGateExecutor(seed: 10) { head, _, run in
            2_000_000 * (head ? 1.20 : 1) * ScriptedGateExecutor.noise(run, 0.001)
        }
        // Each reading of the clock is 1 s later: 8 s is a few runs.
        let measurement = try ticking(runner(executor), every: 1_000_000_000, budget: .seconds(8)).run()
        // A 20% slower head, every pair agreeing: still too few pairs to decide.
        #expect(measurement.verdict == .inconclusive)
        let final = try #require(measurement.final)
        #expect(final.pairs <= 6)
        #expect(final.coverage < final.confidence)
        #expect(measurement.smallestResolvable(threshold: 0.02) == nil)
        let summary = GateReport.summary(
            verdict: measurement.verdict, stop: measurement.stop, final: final, threshold: 0.02, elapsed: 8,
            smallestResolvable: measurement.smallestResolvable(threshold: 0.02))
        #expect(summary.contains("pairs cannot give a 95.0% interval, so no change could be resolved"), "\(summary)")
        #expect(!summary.contains("smallest change"))
    }

    @Test("a head that fails to launch stops the gate with status 3, naming the run")
    func failed() throws {
        let executor = ScriptedGateExecutor(seed: 6) { head, _, run in head && run > 8 ? nil : 2_000_000 }
        let measurement = try runner(executor).run()
        #expect(measurement.verdict == nil)
        #expect(measurement.exitStatus == .launchFailed)
        guard case .failed(let failure) = measurement.stop else {
            Issue.record("expected a failure, got \(measurement.stop)")
            return
        }
        #expect(failure.target == "head")
        #expect(failure.reason.contains("exited with status 1"))
    }

    func countingRunner(_ executor: some RunExecutor) throws -> GateRunner {
        var settings = GateSettings()
        settings.threshold = 0.02
        settings.counts = .perf
        settings.maxRuns = 1000
        var gate = GateRunner(base: base, head: head, rule: try settings.rule(), executor: executor)
        gate.instructionRule = try settings.instructionRule()
        return gate
    }

    @Test("with counts, 3% more instructions and a time within the threshold is regressed, and the instructions say so")
    func instructionsRegressed() throws {
        let executor = ScriptedGateExecutor(
            seed: 7, instructions: { head, run in UInt64(10_000_000 * (head ? 1.03 : 1) * ScriptedGateExecutor.noise(run, 0.001)) }
        ) { _, cpu, run in (cpu == 0 ? 3_150_000 : 3_900_000) * ScriptedGateExecutor.noise(run, 0.005) }
        let measurement = try countingRunner(executor).run()
        #expect(measurement.verdict == .regressed)
        #expect(measurement.exitStatus == .gateFailed)
        #expect(measurement.final?.verdict != .regressed)
        let counted = try #require(measurement.instructions)
        #expect(counted.verdict == .regressed)
        #expect(abs(counted.change - 0.03) < 0.005)
        let time = try #require(measurement.final)
        let summary = GateReport.summary(
            "time summary", verdict: measurement.verdict, time: time, instructions: counted, threshold: 0.01)
        #expect(summary.hasPrefix("regressed: instructions to ready +3.0%"), "\(summary)")
    }

    @Test("with counts, unchanged needs both unchanged; time regressed alone is regressed")
    func instructionsCombined() throws {
        let same = ScriptedGateExecutor(
            seed: 8, instructions: { _, run in UInt64(10_000_000 * ScriptedGateExecutor.noise(run, 0.001)) }
        ) { _, _, run in 3_000_000 * ScriptedGateExecutor.noise(run, 0.005) }
        let unchanged = try countingRunner(same).run()
        #expect(unchanged.verdict == .unchanged)
        #expect(unchanged.instructions?.verdict == .unchanged)
        // A sleep added: time 10% slower, instructions the same.
        let slower = ScriptedGateExecutor(
            seed: 9, instructions: { _, run in UInt64(10_000_000 * ScriptedGateExecutor.noise(run, 0.001)) }
        ) { head, _, run in 3_000_000 * (head ? 1.10 : 1) * ScriptedGateExecutor.noise(run, 0.005) }
        #expect(try countingRunner(slower).run().verdict == .regressed)
        // The rule: regressed wins, both must be decided, inconclusive spreads.
        #expect(GateRunner.combined(time: .unchanged, instructions: .regressed) == .regressed)
        #expect(GateRunner.combined(time: .regressed, instructions: nil) == .regressed)
        #expect(GateRunner.combined(time: .unchanged, instructions: nil) == nil)
        #expect(GateRunner.combined(time: .improved, instructions: .unchanged) == .improved)
        #expect(GateRunner.combined(time: .unchanged, instructions: .inconclusive) == .inconclusive)
        // Each gets half of alpha: together at most alpha.
        var settings = GateSettings()
        settings.counts = .perf
        #expect(try settings.rule().alpha == 0.025)
        #expect(try settings.instructionRule()?.alpha == 0.025)
        settings.counts = nil
        #expect(try settings.rule().alpha == 0.05)
        #expect(try settings.instructionRule() == nil)
    }
}
