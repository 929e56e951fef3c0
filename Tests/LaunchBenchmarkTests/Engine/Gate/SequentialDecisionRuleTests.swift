import Foundation
import LaunchBenchmark
import Testing

/// The gate's decision rule on scripted log-ratios: no timing.
@Suite("Sequential decision rule")
struct SequentialDecisionRuleTests {
    /// `count` log-ratios of a change `change` with spread `spread`, from a
    /// seeded normal (Box–Muller), so every run of the test draws the same.
    static func ratios(_ count: Int, change: Double, spread: Double, generator: inout SeededGenerator) -> [Double] {
        (0..<count).map { _ in
            let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator)
            let u2 = Double.random(in: 0..<1, using: &generator)
            return log1p(change) + spread * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
        }
    }

    @Test("a clear slowdown is regressed at the first look")
    func regressed() throws {
        let rule = try SequentialDecisionRule(threshold: 0.02)
        var generator = SeededGenerator(seed: 1)
        let look = try #require(rule.look(Self.ratios(20, change: 0.10, spread: 0.01, generator: &generator), index: 0))
        #expect(look.verdict == .regressed)
        #expect(look.low > 0.02)
        #expect(abs(look.change - 0.10) < 0.02)
        #expect(look.coverage >= look.confidence)
        #expect(ChangeVerdict.regressed.exitStatus == .gateFailed)
    }

    @Test("a clear speed-up is improved")
    func improved() throws {
        let rule = try SequentialDecisionRule(threshold: 0.02)
        var generator = SeededGenerator(seed: 2)
        let look = try #require(rule.look(Self.ratios(20, change: -0.10, spread: 0.01, generator: &generator), index: 0))
        #expect(look.verdict == .improved)
        #expect(look.high < -0.02)
        #expect(ChangeVerdict.improved.exitStatus == .success)
    }

    @Test("no change with little noise is unchanged: equivalent within the threshold")
    func unchanged() throws {
        let rule = try SequentialDecisionRule(threshold: 0.02)
        var generator = SeededGenerator(seed: 3)
        let look = try #require(rule.look(Self.ratios(30, change: 0, spread: 0.005, generator: &generator), index: 1))
        #expect(look.verdict == .unchanged)
        #expect(look.low > -0.02 && look.high < 0.02)
        #expect(ChangeVerdict.unchanged.exitStatus == .success)
    }

    @Test("an interval that straddles the threshold keeps measuring, and is inconclusive at the last look")
    func inconclusive() throws {
        let rule = try SequentialDecisionRule(threshold: 0.02, maxPairs: 100)
        var generator = SeededGenerator(seed: 4)
        let ratios = Self.ratios(100, change: 0.02, spread: 0.05, generator: &generator)
        let early = try #require(rule.look(Array(ratios.prefix(20)), index: 0))
        #expect(early.verdict == nil)
        let last = try #require(rule.look(ratios, index: rule.looks.count - 1))
        #expect(last.verdict == .inconclusive)
        #expect(ChangeVerdict.inconclusive.exitStatus == .inconclusive)
        #expect(LaunchExitStatus.inconclusive.rawValue == 4)
    }

    @Test("a sample too small for the look's confidence never decides")
    func tooSmall() throws {
        let rule = try SequentialDecisionRule(threshold: 0.02)
        // Three pairs all +50%: [min, max] covers only 75%.
        let look = try #require(rule.closingLook([0.4, 0.41, 0.42], after: 0))
        #expect(look.verdict == .inconclusive)
        #expect(look.coverage < look.confidence)
    }

    @Test("the looks grow to the most pairs, and the spending adds up to alpha")
    func schedule() throws {
        let rule = try SequentialDecisionRule(threshold: 0.03, alpha: 0.05, maxPairs: 1000)
        #expect(rule.looks.first == 20)
        #expect(rule.looks.last == 1000)
        #expect(rule.looks == rule.looks.sorted())
        let spent = rule.looks.indices.map { 1 - rule.confidence(ofLook: $0) }.reduce(0, +)
        #expect(abs(spent - 0.05) < 1e-9)
        for spending in ErrorSpending.allCases {
            #expect(abs(spending.cumulative(alpha: 0.05, at: 1) - 0.05) < 1e-6)
            #expect(spending.cumulative(alpha: 0.05, at: 0) == 0)
            #expect(spending.cumulative(alpha: 0.05, at: 0.3) < spending.cumulative(alpha: 0.05, at: 0.6))
        }
        // O'Brien–Fleming spends far less at the first look than Pocock.
        #expect(
            ErrorSpending.obrienFleming.cumulative(alpha: 0.05, at: 0.02) < ErrorSpending.pocock.cumulative(alpha: 0.05, at: 0.02) / 100)
    }

    @Test("settings that cannot work are refused, naming the value")
    func refused() {
        #expect(throws: GateRuleError.threshold(0)) { try SequentialDecisionRule(threshold: 0) }
        #expect(throws: GateRuleError.alpha(0.6)) { try SequentialDecisionRule(threshold: 0.02, alpha: 0.6) }
        #expect(throws: GateRuleError.looks(firstLook: 20, maxPairs: 10)) { try SequentialDecisionRule(threshold: 0.02, maxPairs: 10) }
        #expect(GateRuleError.looks(firstLook: 20, maxPairs: 10).description.contains("--max-runs"))
    }

    /// A whole session of looks on scripted pairs: the verdict of the first
    /// look that decides, or inconclusive.
    static func session(_ rule: SequentialDecisionRule, _ ratios: [Double], fixedConfidence: Double? = nil) -> ChangeVerdict {
        for (index, pairs) in rule.looks.enumerated() {
            let confidence = fixedConfidence ?? rule.confidence(ofLook: index)
            let look = rule.look(Array(ratios.prefix(pairs)), confidence: confidence, isLast: false)
            if let verdict = look?.verdict { return verdict }
        }
        return .inconclusive
    }

    /// A session with a time `budget` as the gate runs it: pair i takes
    /// 1 + e^dᵢ (base 1, head e^dᵢ), so a slower head spends the clock
    /// faster — the clock depends on the very pairs it judges — and the
    /// error is spent by the larger of pairs / most pairs and elapsed /
    /// budget; when the budget ends between looks, a closing look spends the
    /// rest.
    static func timedSession(_ rule: SequentialDecisionRule, _ ratios: [Double], budget: Double) -> ChangeVerdict {
        var elapsed = 0.0
        var spent = 0.0
        var pairs = 0
        for (index, due) in rule.looks.enumerated() {
            while pairs < due, pairs < ratios.count, elapsed < budget {
                elapsed += 1 + exp(ratios[pairs])
                pairs += 1
            }
            guard pairs == due else { break }
            let fraction = rule.fraction(pairs: pairs, elapsed: elapsed, budget: budget)
            let look = rule.look(
                Array(ratios.prefix(pairs)), confidence: rule.confidence(from: spent, to: fraction),
                isLast: index == rule.looks.count - 1)
            spent = fraction
            if let verdict = look?.verdict { return verdict }
        }
        return rule.closingLook(Array(ratios.prefix(pairs)), after: spent)?.verdict ?? .inconclusive
    }

    @Test(
        "repeated looks keep the false-verdict rate under alpha, spent by pairs or by a time budget's share; naive 95% intervals at every look do not",
        arguments: [GateInterval.both, .sign])
    func repeatedLooks(interval: GateInterval) throws {
        // The true change sits exactly on the threshold: "regressed" (the
        // interval above +2%) and "unchanged" (below +2%) are then both
        // wrong, so every verdict but inconclusive is a false one.
        let rule = try SequentialDecisionRule(threshold: 0.02, alpha: 0.05, maxPairs: 300, interval: interval)
        // The most pairs (10000) never reached: a budget of about 300 pairs'
        // time ends every session, as `--max-time` does, and the clock
        // depends on the pairs it judges (`timedSession`).
        let timed = try SequentialDecisionRule(threshold: 0.02, alpha: 0.05, maxPairs: 10000, interval: interval)
        var generator = SeededGenerator(seed: 38)
        var falseVerdicts = 0
        var timedFalseVerdicts = 0
        var naiveFalseVerdicts = 0
        let sessions = 400
        for _ in 0..<sessions {
            let ratios = Self.ratios(400, change: 0.02, spread: 0.03, generator: &generator)
            if Self.session(rule, ratios) != .inconclusive { falseVerdicts += 1 }
            if Self.timedSession(timed, ratios, budget: 300 * 2.02) != .inconclusive { timedFalseVerdicts += 1 }
            if Self.session(rule, ratios, fixedConfidence: 0.95) != .inconclusive { naiveFalseVerdicts += 1 }
        }
        let rate = Double(falseVerdicts) / Double(sessions)
        let naive = Double(naiveFalseVerdicts) / Double(sessions)
        // α = 0.05; 3 binomial standard errors over 400 sessions is 0.033.
        #expect(rate <= 0.05 + 0.033, "false verdicts \(falseVerdicts) of \(sessions)")
        #expect(Double(timedFalseVerdicts) / Double(sessions) <= 0.05 + 0.033, "spent by time: \(timedFalseVerdicts) of \(sessions)")
        #expect(naive > rate, "naive \(naiveFalseVerdicts), spending \(falseVerdicts)")
        #expect(naive > 0.05, "naive repeated 95% intervals: \(naiveFalseVerdicts) of \(sessions)")
        print(
            "repeatedLooks \(interval): \(falseVerdicts) of \(sessions) spent by pairs, \(timedFalseVerdicts) by time, "
                + "\(naiveFalseVerdicts) naive")
    }

    @Test("an unchanged program is almost never called regressed or improved", arguments: [GateInterval.both, .sign])
    func unchangedNeverFlagged(interval: GateInterval) throws {
        let rule = try SequentialDecisionRule(threshold: 0.02, maxPairs: 300, interval: interval)
        var generator = SeededGenerator(seed: 7)
        var flagged = 0
        var unchanged = 0
        for _ in 0..<200 {
            let verdict = Self.session(rule, Self.ratios(300, change: 0, spread: 0.04, generator: &generator))
            if verdict == .regressed || verdict == .improved { flagged += 1 }
            if verdict == .unchanged { unchanged += 1 }
        }
        #expect(flagged == 0)
        #expect(unchanged >= 190)
    }

    @Test("the signed-rank interval is narrower than the sign interval on the same pairs, and a real slowdown is decided sooner")
    func signedRankIsNarrower() throws {
        var generator = SeededGenerator(seed: 11)
        let ratios = Self.ratios(400, change: 0.03, spread: 0.03, generator: &generator)
        let signed = try SequentialDecisionRule(threshold: 0.02, maxPairs: 400, interval: .signedRank)
        let sign = try SequentialDecisionRule(threshold: 0.02, maxPairs: 400, interval: .sign)
        let a = try #require(signed.look(ratios, confidence: 0.99, isLast: false))
        let b = try #require(sign.look(ratios, confidence: 0.99, isLast: false))
        #expect(a.halfWidth < b.halfWidth, "signed-rank ±\(a.halfWidth), sign ±\(b.halfWidth)")
        #expect(a.coverage >= 0.99 && b.coverage >= 0.99)
        // Over 100 sessions at +3.5% (threshold 2%), the pairs each needs.
        var pairsSigned = 0
        var pairsSign = 0
        for _ in 0..<100 {
            let sample = Self.ratios(400, change: 0.035, spread: 0.03, generator: &generator)
            pairsSigned += Self.pairsToVerdict(signed, sample)
            pairsSign += Self.pairsToVerdict(sign, sample)
        }
        #expect(pairsSigned < pairsSign, "signed-rank \(pairsSigned), sign \(pairsSign) pairs")
        print("pairs to a verdict over 100 sessions: signed-rank \(pairsSigned), sign \(pairsSign)")
    }

    static func pairsToVerdict(_ rule: SequentialDecisionRule, _ ratios: [Double]) -> Int {
        for (index, pairs) in rule.looks.enumerated() where rule.look(Array(ratios.prefix(pairs)), index: index)?.verdict != nil {
            return pairs
        }
        return rule.maxPairs
    }

    @Test("both intervals intersected: near the better of the two on normal pairs and on preempted ones")
    func bothIntervals() throws {
        var generator = SeededGenerator(seed: 12)
        let normal = Self.ratios(1000, change: 0.03, spread: 0.03, generator: &generator)
        // A loaded machine: 70% of pairs clean (±0.5%), 30% with one side
        // preempted by up to +60% (either side, so still symmetric).
        let loaded = Self.ratios(1000, change: 0.03, spread: 0.005, generator: &generator).map { ratio in
            Double.random(in: 0..<1, using: &generator) < 0.3
                ? ratio + Double.random(in: -0.6...0.6, using: &generator) : ratio
        }
        func width(_ interval: GateInterval, _ ratios: [Double]) throws -> Double {
            let rule = try SequentialDecisionRule(threshold: 0.02, maxPairs: 1000, interval: interval)
            return try #require(rule.look(ratios, confidence: 0.99, isLast: false)).halfWidth
        }
        for ratios in [normal, loaded] {
            let both = try width(.both, ratios)
            let best = min(try width(.sign, ratios), try width(.signedRank, ratios))
            let worst = max(try width(.sign, ratios), try width(.signedRank, ratios))
            #expect(both < worst, "both ±\(both), best ±\(best), worst ±\(worst)")
            #expect(both < best * 1.15, "both ±\(both), best ±\(best)")
        }
        // On the loaded pairs the sign interval is the narrower.
        #expect(try width(.sign, loaded) < width(.signedRank, loaded))
    }

    /// `count` launches of a program that waits for the scheduler's tick:
    /// 17 ms of work plus `extra` ms, ±0.1 ms, and 4 ms more with chance
    /// `step` (another 4 ms with chance 0.1), in milliseconds.
    static func steppedLaunches(_ count: Int, extra: Double, step: Double, generator: inout SeededGenerator) -> [Double] {
        (0..<count).map { _ in
            let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator)
            let u2 = Double.random(in: 0..<1, using: &generator)
            let noise = 0.1 * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
            var steps = Double.random(in: 0..<1, using: &generator) < step ? 1.0 : 0
            if Double.random(in: 0..<1, using: &generator) < 0.1 { steps += 1 }
            return 17 + extra + noise + 4 * steps
        }
    }

    /// Paired log-ratios of a head that does 0.2 ms more work and lands in
    /// the slower step 40% of the time instead of 30%: its mean launch is
    /// 3.2% slower (19.2 ms against 18.6), its typical pair about 1.2%.
    static func steppedRatios(_ count: Int, headStep: Double, headExtra: Double, generator: inout SeededGenerator) -> [Double] {
        let base = steppedLaunches(count, extra: 0, step: 0.3, generator: &generator)
        let head = steppedLaunches(count, extra: headExtra, step: headStep, generator: &generator)
        return zip(head, base).map { log($0 / $1) }
    }

    @Test("a launch that moves in steps: the median alone calls a 3% slowdown unchanged; with the trimmed mean's guard it never does")
    func steppedSlowdown() throws {
        // 3000 pairs: about what a 120 s gate of a 17 ms server takes.
        let median = try SequentialDecisionRule(threshold: 0.02, maxPairs: 3000, trimming: nil)
        let guarded = try SequentialDecisionRule(threshold: 0.02, maxPairs: 3000)
        var generator = SeededGenerator(seed: 42)
        var medianVerdicts: [ChangeVerdict: Int] = [:]
        var guardedVerdicts: [ChangeVerdict: Int] = [:]
        for _ in 0..<40 {
            let ratios = Self.steppedRatios(3000, headStep: 0.4, headExtra: 0.2, generator: &generator)
            medianVerdicts[Self.session(median, ratios), default: 0] += 1
            guardedVerdicts[Self.session(guarded, ratios), default: 0] += 1
        }
        print("stepped +3%: median alone \(medianVerdicts), with the guard \(guardedVerdicts)")
        #expect((medianVerdicts[.unchanged] ?? 0) >= 30, "\(medianVerdicts)")
        #expect(guardedVerdicts[.unchanged] == nil, "\(guardedVerdicts)")
        #expect((guardedVerdicts[.regressed] ?? 0) >= 34, "\(guardedVerdicts)")
        // The look that decides says which centre saw it.
        let ratios = Self.steppedRatios(3000, headStep: 0.4, headExtra: 0.2, generator: &generator)
        let look = try #require(guarded.look(ratios, confidence: 0.99, isLast: false))
        #expect(look.high < 0.02)
        #expect(try #require(look.trimmedLow) > 0.02)
        #expect(look.verdict == .regressed)
    }

    @Test("a launch that moves in steps, unchanged: the guard still says unchanged and never regressed or improved")
    func steppedUnchanged() throws {
        let guarded = try SequentialDecisionRule(threshold: 0.02, maxPairs: 3000)
        let median = try SequentialDecisionRule(threshold: 0.02, maxPairs: 3000, trimming: nil)
        var generator = SeededGenerator(seed: 43)
        var verdicts: [ChangeVerdict: Int] = [:]
        // What the guard costs: the pairs each rule needs to its verdict.
        var pairsGuarded = 0
        var pairsMedian = 0
        for _ in 0..<40 {
            let ratios = Self.steppedRatios(3000, headStep: 0.3, headExtra: 0, generator: &generator)
            verdicts[Self.session(guarded, ratios), default: 0] += 1
            pairsGuarded += Self.pairsToVerdict(guarded, ratios)
            pairsMedian += Self.pairsToVerdict(median, ratios)
        }
        print("stepped +0: \(verdicts); pairs to a verdict over 40 sessions: guarded \(pairsGuarded), median alone \(pairsMedian)")
        #expect(verdicts[.regressed] == nil && verdicts[.improved] == nil, "\(verdicts)")
        #expect((verdicts[.unchanged] ?? 0) >= 36, "\(verdicts)")
        #expect(pairsMedian < pairsGuarded)
    }

    @Test("on pairs without steps the guard costs few pairs: normal pairs at +3.5% and at 0")
    func guardOnNormalPairs() throws {
        let guarded = try SequentialDecisionRule(threshold: 0.02, maxPairs: 1000)
        let median = try SequentialDecisionRule(threshold: 0.02, maxPairs: 1000, trimming: nil)
        var generator = SeededGenerator(seed: 44)
        for change in [0.035, 0] {
            var pairsGuarded = 0
            var pairsMedian = 0
            for _ in 0..<100 {
                let ratios = Self.ratios(1000, change: change, spread: 0.03, generator: &generator)
                pairsGuarded += Self.pairsToVerdict(guarded, ratios)
                pairsMedian += Self.pairsToVerdict(median, ratios)
            }
            print("normal pairs at \(change): pairs to a verdict over 100 sessions: guarded \(pairsGuarded), median alone \(pairsMedian)")
            #expect(Double(pairsGuarded) < 1.3 * Double(pairsMedian), "guarded \(pairsGuarded), median alone \(pairsMedian)")
        }
    }

    @Test("the two centres' verdicts joined: either beyond is beyond, unchanged needs both, opposite ones decide nothing")
    func joinedVerdicts() {
        #expect(SequentialDecisionRule.joined(.regressed, nil) == .regressed)
        #expect(SequentialDecisionRule.joined(.unchanged, .regressed) == .regressed)
        #expect(SequentialDecisionRule.joined(nil, .improved) == .improved)
        #expect(SequentialDecisionRule.joined(.unchanged, nil) == nil)
        #expect(SequentialDecisionRule.joined(nil, .unchanged) == nil)
        #expect(SequentialDecisionRule.joined(.unchanged, .unchanged) == .unchanged)
        #expect(SequentialDecisionRule.joined(.regressed, .improved) == nil)
        #expect(throws: GateRuleError.trimming(0.5)) { try SequentialDecisionRule(threshold: 0.02, trimming: 0.5) }
    }

    @Test("the trimmed mean's interval and Student's t quantiles agree with SciPy")
    func trimmedMeanInterval() throws {
        // scipy.stats.trim_mean(x, 0.2); Winsorized variance (ddof 1) over
        // ((1 − 0.4)√n)²; stats.t.ppf(0.975, 7).
        let x = [0.1, 0.3, 0.2, 0.5, 0.4, 3.0, -2.0, 0.25, 0.35, 0.15, 0.45, 0.05]
        let interval = try #require(TrimmedMeanInterval(sorted: x.sorted(), trimming: 0.2, confidence: 0.95))
        #expect(abs(interval.mean - 0.275) < 1e-12)
        #expect(abs(interval.low - 0.11138819951659204) < 1e-9)
        #expect(abs(interval.high - 0.438611800483408) < 1e-9)
        #expect(interval.degreesOfFreedom == 7)
        for (p, nu, expected) in [
            (0.975, 10, 2.228138851986274), (0.995, 5, 4.032142983555228), (0.975, 1, 12.706204736174694),
            (0.9995, 200, 3.3398354062757107),
        ] {
            #expect(abs(StudentTTest.quantile(p, degreesOfFreedom: nu) - expected) < 1e-9 * expected)
            #expect(abs(StudentTTest.quantile(1 - p, degreesOfFreedom: nu) + expected) < 1e-9 * expected)
        }
        #expect(TrimmedMeanInterval(sorted: [1, 2, 3], trimming: 0.4, confidence: 0.95) == nil)
    }
}
