import Foundation
import Glibc
import LaunchSupport

/// A side-by-side gate: launches base and head alternately in ABBA blocks
/// (`ABBAOrder`), pairs runs that ran on the same CPU, or neighbours
/// on any CPU (`GatePairing`) and looks at the pairs at fixed counts until
/// `SequentialDecisionRule` decides, the budget ends, a run fails or
/// the interrupt fires. The verdict comes only from these paired runs,
/// never from a stored number. Like `BenchmarkRunner` it runs through an
/// injected `RunExecutor`, so a test can script it.
package struct GateRunner {
    /// The program compared against.
    package var base: LaunchTarget
    /// The changed program.
    package var head: LaunchTarget
    /// The page-cache mode of every run.
    package var mode: LaunchMode
    /// Unmeasured runs per side before measuring, also in ABBA order.
    package var warmup: Int
    /// When to decide.
    package var rule: SequentialDecisionRule
    /// With instruction counts: the rule for them, looked at with time's at
    /// the same looks and confidences (nil: time only).
    package var instructionRule: SequentialDecisionRule?
    /// The measuring budget in time; nil: only the rule's most pairs.
    package var maxTime: Duration?
    /// What runs one launch.
    package var executor: any RunExecutor
    /// Needed for cold mode.
    package var coldCache: (any ColdCachePreparer)?
    /// Stops the gate when it fires.
    package var interrupt: InterruptMonitor?
    /// Called after each run.
    package var progress: ((GateProgress) -> Void)?
    /// Whether runs pair only with runs on the same CPU (`GatePairing`);
    /// false: each ABBA block's neighbours pair whatever their CPU.
    package var sameCPUPairs = true
    /// A clock in nanoseconds (monotonic); a test may script it.
    package var clock: () -> UInt64 = { monotonicNanoseconds() }

    /// A gate of `head` against `base`.
    package init(
        base: LaunchTarget, head: LaunchTarget, mode: LaunchMode = .warm, warmup: Int = 2, rule: SequentialDecisionRule,
        maxTime: Duration? = nil, executor: any RunExecutor, coldCache: (any ColdCachePreparer)? = nil,
        interrupt: InterruptMonitor? = nil, progress: ((GateProgress) -> Void)? = nil
    ) {
        self.base = base
        self.head = head
        self.mode = mode
        self.warmup = warmup
        self.rule = rule
        self.maxTime = maxTime
        self.executor = executor
        self.coldCache = coldCache
        self.interrupt = interrupt
        self.progress = progress
    }

    package enum Stop: Error {
        case interrupted
        case failed(RunFailure)
    }

    /// Runs the gate. Never throws: a failed run or an interrupt ends it and
    /// is its `GateMeasurement/stop`.
    package func run() -> GateMeasurement {
        var outcome = GateMeasurement(verdict: nil, stop: .interrupted)
        var pairing = GatePairing(sameCPU: sameCPUPairs)
        var instructionPairing = GatePairing(sameCPU: sameCPUPairs)
        do throws(Stop) {
            for position in 0..<(2 * Swift.max(0, warmup)) {
                let side = ABBAOrder.side(at: position)
                _ = try launch(side, index: position / 2, warmup: true)
                progress?(GateProgress(runs: 0, pairs: 0, elapsed: 0, look: nil, isWarmup: true))
            }
            let start = clock()
            let budget = maxTime.map(\.seconds)
            // The information fraction of the last look (the error spent so
            // far is α of it).
            var spentFraction = 0.0
            var position = 0
            while true {
                let elapsed = Duration.nanoseconds(Int64(clamping: clock() &- start))
                outcome.elapsed = elapsed.seconds
                if let maxTime, elapsed >= maxTime {
                    outcome.stop = .maxTime(maxTime)
                    break
                }
                if outcome.baseRuns.count >= rule.maxPairs, outcome.headRuns.count >= rule.maxPairs {
                    outcome.stop = .maxRuns(rule.maxPairs)
                    break
                }
                let side = ABBAOrder.side(at: position)
                let index = side == .base ? outcome.baseRuns.count : outcome.headRuns.count
                let measurement = try launch(side, index: index, warmup: false)
                if side == .base { outcome.baseRuns.append(measurement) } else { outcome.headRuns.append(measurement) }
                // A successful run always has a time to ready (a run without
                // one fails in `launch`); 0 never happens and pairs as tiny.
                let time = Double(measurement.wallToReady ?? 0)
                let observation = GateObservation(position: position, side: side, value: time, cpu: measurement.cpu)
                outcome.observations.append(observation)
                pairing.add(observation)
                if let instructions = measurement.counts?.instructions {
                    var counted = observation
                    counted.value = Double(instructions)
                    instructionPairing.add(counted)
                }
                position += 1
                let pairs = pairing.logRatios.count
                var look: GateLook?
                var verdict: ChangeVerdict?
                if pairing.logRatios.count != (outcome.looks.last?.pairs ?? 0), let index = rule.lookIndex(atPairs: pairs) {
                    let fraction = rule.fraction(
                        pairs: pairs, elapsed: Double(clock() &- start) / 1e9, budget: budget)
                    let confidence = rule.confidence(from: spentFraction, to: fraction)
                    spentFraction = fraction
                    let isLast = index == rule.looks.count - 1
                    look = rule.look(pairing.logRatios, confidence: confidence, isLast: isLast)
                    if let look { outcome.looks.append(look) }
                    verdict = look?.verdict
                    if let instructionRule {
                        let counted = instructionRule.look(
                            instructionPairing.logRatios, confidence: confidence, isLast: isLast)
                        if let counted { outcome.instructions = counted }
                        verdict = Self.combined(
                            time: verdict, instructions: counted?.verdict ?? (look?.verdict == .inconclusive ? .inconclusive : nil))
                    }
                }
                progress?(
                    GateProgress(
                        runs: position, pairs: pairs, elapsed: Double(clock() &- start) / 1e9, look: look ?? outcome.looks.last,
                        isWarmup: false))
                if let verdict {
                    outcome.verdict = verdict
                    outcome.stop = verdict == .inconclusive ? .maxRuns(rule.maxPairs) : .decided
                    break
                }
            }
            if outcome.verdict == nil {
                if let last = outcome.looks.indices.last, outcome.looks[last].pairs == pairing.logRatios.count {
                    // The budget ended before a pair was added since the last
                    // look: a closing look would judge the same pairs with
                    // only the error left (little, when that look came near
                    // the budget's end by time), so a wider interval. The
                    // last look stands: undecided, it is inconclusive; a
                    // time verdict that waited for the instructions' is
                    // kept and combined with theirs, as a closing look's is.
                    if outcome.looks[last].verdict == nil { outcome.looks[last].verdict = .inconclusive }
                    outcome.verdict =
                        instructionRule == nil
                        ? outcome.looks[last].verdict
                        : Self.combined(
                            time: outcome.looks[last].verdict,
                            instructions: outcome.instructions?.verdict ?? .inconclusive)
                } else {
                    // The budget ended between looks: one closing look spends
                    // what error is left.
                    let look = rule.closingLook(pairing.logRatios, after: spentFraction)
                    if let look { outcome.looks.append(look) }
                    outcome.verdict = look?.verdict ?? .inconclusive
                    if let instructionRule {
                        let counted = instructionRule.closingLook(instructionPairing.logRatios, after: spentFraction)
                        if let counted { outcome.instructions = counted }
                        outcome.verdict = Self.combined(time: outcome.verdict, instructions: counted?.verdict ?? .inconclusive)
                    }
                }
            }
        } catch {
            switch error {
            case .interrupted: outcome.stop = .interrupted
            case .failed(let failure): outcome.stop = .failed(failure)
            }
            outcome.verdict = nil
        }
        outcome.unpaired = pairing.unpaired
        for cpu in pairing.cpus { outcome.pairsByCPU[cpu ?? -1, default: 0] += 1 }
        if !sameCPUPairs { outcome.pairsAcrossCPUs = pairing.acrossCPUs }
        outcome.noiseFloor = GateNoiseFloor(
            baseLogRatios: pairing.baseLogRatios, headPairs: pairing.logRatios.count, alpha: rule.alpha,
            interval: rule.interval)
        return outcome
    }

    /// The verdict of time and instruction counts together (docs/gate.md,
    /// "Instruction counts"): regressed as soon as either is; otherwise
    /// nil (keep measuring) until both are decided; inconclusive if either
    /// ended so; else time's verdict (unchanged or improved), since time is
    /// what a user waits for.
    package static func combined(time: ChangeVerdict?, instructions: ChangeVerdict?) -> ChangeVerdict? {
        if time == .regressed || instructions == .regressed { return .regressed }
        guard let time, let instructions else { return nil }
        if time == .inconclusive || instructions == .inconclusive { return .inconclusive }
        return time
    }

    /// Prepares (cold), launches and checks one run of `side`.
    package func launch(_ side: GateSide, index: Int, warmup: Bool) throws(Stop) -> RunMeasurement {
        if interrupt?.isInterrupted == true { throw .interrupted }
        let target = side == .base ? base : head
        let context = RunContext(target: target, mode: mode, index: index, isWarmup: warmup)
        let failure = { (reason: String) in
            RunFailure(target: target.name, mode: mode, run: context.runDescription, reason: reason)
        }
        var residency: ResidencyReport?
        if mode == .cold {
            guard let coldCache else { throw .failed(failure("cold mode needs a page-cache preparer")) }
            do {
                residency = try coldCache.prepare(target: target)
            } catch {
                throw .failed(failure("cannot evict its files from the page cache: \(error)"))
            }
        }
        let observed: ObservedRun
        do {
            observed = try executor.execute(context)
        } catch {
            throw .failed(failure("\(error)"))
        }
        if let before = residency, let coldCache { residency = coldCache.measureAfterRun(before) }
        if observed.interrupted || interrupt?.isInterrupted == true { throw .interrupted }
        if let reason = observed.failure { throw .failed(failure(reason)) }
        return observed.measurement(index: index, residency: residency)
    }
}
