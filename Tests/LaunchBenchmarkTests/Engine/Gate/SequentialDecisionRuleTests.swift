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
        let look = try #require(rule.closingLook([0.4, 0.41, 0.42], after: nil))
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

    @Test(
        "repeated looks keep the false-verdict rate under alpha; naive 95% intervals at every look do not",
        arguments: [GateInterval.both, .sign])
    func repeatedLooks(interval: GateInterval) throws {
        // The true change sits exactly on the threshold: "regressed" (the
        // interval above +2%) and "unchanged" (below +2%) are then both
        // wrong, so every verdict but inconclusive is a false one.
        let rule = try SequentialDecisionRule(threshold: 0.02, alpha: 0.05, maxPairs: 300, interval: interval)
        var generator = SeededGenerator(seed: 38)
        var falseVerdicts = 0
        var naiveFalseVerdicts = 0
        let sessions = 400
        for _ in 0..<sessions {
            let ratios = Self.ratios(300, change: 0.02, spread: 0.03, generator: &generator)
            if Self.session(rule, ratios) != .inconclusive { falseVerdicts += 1 }
            if Self.session(rule, ratios, fixedConfidence: 0.95) != .inconclusive { naiveFalseVerdicts += 1 }
        }
        let rate = Double(falseVerdicts) / Double(sessions)
        let naive = Double(naiveFalseVerdicts) / Double(sessions)
        // α = 0.05; 3 binomial standard errors over 400 sessions is 0.033.
        #expect(rate <= 0.05 + 0.033, "false verdicts \(falseVerdicts) of \(sessions)")
        #expect(naive > rate, "naive \(naiveFalseVerdicts), spending \(falseVerdicts)")
        #expect(naive > 0.05, "naive repeated 95% intervals: \(naiveFalseVerdicts) of \(sessions)")
        print("repeatedLooks \(interval): \(falseVerdicts) of \(sessions) with spending, \(naiveFalseVerdicts) naive")
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
}
