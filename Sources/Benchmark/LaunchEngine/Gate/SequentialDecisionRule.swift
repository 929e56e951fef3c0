#if canImport(Glibc)
import Glibc
#endif

/// A gate's decision rule: looks at the paired log-ratios at fixed pair
/// counts, and decides when the change's interval lies wholly above
/// +threshold (regressed), below −threshold (improved) or inside ±threshold
/// (unchanged); at the last look it is inconclusive otherwise.
///
/// Method: at look k the interval is, by default, the intersection of the
/// sign-test interval of the median (`MedianConfidenceInterval`) and the
/// Wilcoxon signed-rank interval of the centre
/// (`SignedRankConfidenceInterval`), each at half the look's error
/// (``GateInterval``), at confidence
/// 1 − (α(t_k) − α(t_{k−1})), where α(t) is the ``ErrorSpending`` function
/// and t_k the information fraction at look k: pairs / ``maxPairs``, or,
/// with a time budget, the share of it elapsed if that is larger
/// (``fraction(pairs:elapsed:budget:)``: the spending follows whichever
/// limit will end the session; Lan & DeMets, "Group sequential procedures:
/// calendar versus information time", *Statistics in Medicine* 8, 1989,
/// 1191–1198). These are repeated confidence intervals
/// (Jennison & Turnbull, "Interim analyses: the repeated confidence
/// interval approach", *JRSS B* 51, 1989, 305–361): by the union bound the
/// chance that *any* look's interval misses the true median change is at
/// most Σ (α(t_k) − α(t_{k−1})) ≤ α, so a verdict that needs the interval
/// beyond a threshold the truth is not beyond is wrong with probability at
/// most α, however many looks are taken. (The bound ignores the looks'
/// correlation, so the real rate is lower: `SequentialDecisionRuleTests`
/// simulates it.) Stopping early for the budget only spends less.
///
/// Needs: pairs independent and symmetric about the change (no normality),
/// which paired same-CPU runs in ABBA order give (docs/gate.md); the sign
/// interval needs only a common median.
///
/// The trimmed mean's guard (``trimming``, on by default): a launch that
/// waits for the scheduler's tick moves in steps, and a change can then
/// make more runs land in the slower step while the typical pair barely
/// moves, so the pairs' median reads a fraction of a change their mean
/// shows whole (docs/gate.md, "The trimmed mean's guard"). So each look
/// also takes the pairs' trimmed mean with its interval
/// (`TrimmedMeanInterval`), and the error is shared: the median-type
/// interval gets 2/3 of the look's error with both (1/2 with one), the
/// trimmed mean the rest. A look says unchanged only if both intervals lie
/// within ±threshold, and regressed (improved) if either lies beyond
/// +threshold (−threshold) and the other does not lie beyond the opposite
/// one. A verdict is wrong only if an interval missed its own centre, so
/// the union bound still holds, for the two centres together, without
/// symmetry.
package struct SequentialDecisionRule: Sendable, Equatable {
    /// The change, as a fraction, that matters (0.02 = 2%).
    package var threshold: Double
    /// The chance of a wrong verdict over the whole session.
    package var alpha: Double
    /// How α is spent over the looks.
    package var spending: ErrorSpending
    /// The most pairs the session may take (information fraction 1).
    package var maxPairs: Int
    /// The pair counts at which the rule looks, ascending; the last is ``maxPairs``.
    package var looks: [Int]
    /// The interval each look takes.
    package var interval: GateInterval
    /// The trimmed mean's guard: the fraction trimmed from each tail; nil:
    /// the median-type interval alone decides.
    package var trimming: Double?

    /// The guard's default trimming, 20% of each tail (Wilcox's default).
    package static let defaultTrimming = 0.2

    /// A rule; looks at `firstLook` pairs, then each `growth` times more
    /// (rounded), and at `maxPairs`.
    package init(
        threshold: Double, alpha: Double = 0.05, spending: ErrorSpending = .pocock, maxPairs: Int = 1000,
        firstLook: Int = 20, growth: Double = 1.5, interval: GateInterval = .both,
        trimming: Double? = SequentialDecisionRule.defaultTrimming
    ) throws(GateRuleError) {
        guard threshold > 0, threshold < 1 else { throw .threshold(threshold) }
        if let trimming, !(trimming > 0 && trimming < 0.5) { throw .trimming(trimming) }
        guard alpha > 0, alpha < 0.5 else { throw .alpha(alpha) }
        guard firstLook >= 6, maxPairs >= firstLook else { throw .looks(firstLook: Swift.max(firstLook, 6), maxPairs: maxPairs) }
        self.threshold = threshold
        self.alpha = alpha
        self.spending = spending
        self.maxPairs = maxPairs
        self.interval = interval
        self.trimming = trimming
        var looks: [Int] = []
        var next = Double(firstLook)
        while Int(next.rounded()) < maxPairs {
            looks.append(Int(next.rounded()))
            next *= Swift.max(growth, 1.05)
        }
        looks.append(maxPairs)
        self.looks = looks
    }

    /// The information fraction after `pairs` pairs and `elapsed` seconds
    /// of a session with a time `budget` in seconds (nil: none): the larger
    /// of pairs / ``maxPairs`` and elapsed / budget, in 0…1. It only grows
    /// as a session goes on, and reaches 1 when either limit ends it, so
    /// the whole α is spent by the end however the session ends.
    package func fraction(pairs: Int, elapsed: Double = 0, budget: Double? = nil) -> Double {
        var t = Double(pairs) / Double(maxPairs)
        if let budget, budget > 0 { t = Swift.max(t, elapsed / budget) }
        return Swift.min(Swift.max(t, 0), 1)
    }

    /// The confidence of a look at information fraction `t` after one at
    /// `before`: 1 − (α(t) − α(before)).
    package func confidence(from before: Double, to t: Double) -> Double {
        let spent = spending.cumulative(alpha: alpha, at: t) - spending.cumulative(alpha: alpha, at: before)
        return 1 - Swift.min(Swift.max(spent, 1e-12), alpha)
    }

    /// The confidence of look `index` (0-based in ``looks``) of a session
    /// without a time budget.
    package func confidence(ofLook index: Int) -> Double {
        let before = index == 0 ? 0 : fraction(pairs: looks[index - 1])
        return confidence(from: before, to: fraction(pairs: looks[index]))
    }

    /// The look at `logRatios` (ln head/base of each pair) taken as look
    /// `index`; nil for an empty sample or an index past the last look.
    package func look(_ logRatios: [Double], index: Int) -> GateLook? {
        guard looks.indices.contains(index) else { return nil }
        return look(logRatios, confidence: confidence(ofLook: index), isLast: index == looks.count - 1)
    }

    /// The last look of a session whose budget ended after a look at
    /// information fraction `before` (0: before the first): it spends all
    /// the error left, α − α(before), so the union bound still holds, and
    /// its verdict is inconclusive unless the interval decides.
    package func closingLook(_ logRatios: [Double], after before: Double) -> GateLook? {
        look(logRatios, confidence: confidence(from: before, to: 1), isLast: true)
    }

    /// The look at `logRatios` with an interval at `confidence`: at the
    /// last look a verdict that is not decided is inconclusive. Nil for an
    /// empty sample.
    package func look(_ logRatios: [Double], confidence: Double, isLast: Bool) -> GateLook? {
        let sorted = logRatios.sorted()
        let error = 1 - confidence
        // The median-type interval's share of the error; the trimmed mean
        // gets the rest.
        let share = trimming == nil ? 1 : interval == .both ? 2.0 / 3 : 0.5
        let medianConfidence = 1 - error * share
        guard let (center, low, high, coverage) = interval.estimate(sorted, confidence: medianConfidence) else { return nil }
        let trimmed = trimming.flatMap {
            TrimmedMeanInterval(sorted: sorted, trimming: $0, confidence: 1 - error * (1 - share))
        }
        // A sample too small for any pair of ranks to reach the confidence
        // gets [min, max] with less coverage: it must not decide.
        var verdict: ChangeVerdict?
        if coverage >= medianConfidence {
            let median = decide(low: expm1(low), high: expm1(high))
            if trimming == nil {
                verdict = median
            } else if let trimmed {
                verdict = Self.joined(median, decide(low: expm1(trimmed.low), high: expm1(trimmed.high)))
            }
        }
        if verdict == nil, isLast { verdict = .inconclusive }
        // What the whole look covers: a miss of either interval is a miss.
        let total = Swift.max(0, coverage - (trimming == nil ? 0 : error * (1 - share)))
        return GateLook(
            pairs: sorted.count, change: expm1(center), low: expm1(low), high: expm1(high), confidence: confidence,
            coverage: total, verdict: verdict, trimmedChange: trimmed.map { expm1($0.mean) },
            trimmedLow: trimmed.map { expm1($0.low) }, trimmedHigh: trimmed.map { expm1($0.high) })
    }

    /// The verdict of the median-type and the trimmed mean's intervals
    /// together: regressed (improved) if either is and the other is not
    /// the opposite; unchanged only if both are; otherwise nil.
    package static func joined(_ median: ChangeVerdict?, _ trimmed: ChangeVerdict?) -> ChangeVerdict? {
        let both = [median, trimmed]
        if both.contains(.regressed), !both.contains(.improved) { return .regressed }
        if both.contains(.improved), !both.contains(.regressed) { return .improved }
        return median == .unchanged && trimmed == .unchanged ? .unchanged : nil
    }

    /// The verdict an interval (as fractions) gives, or nil.
    package func decide(low: Double, high: Double) -> ChangeVerdict? {
        Self.verdict(low: low, high: high, threshold: threshold)
    }

    /// The verdict an interval (as fractions) gives against `threshold`, or nil.
    package static func verdict(low: Double, high: Double, threshold: Double) -> ChangeVerdict? {
        if low > threshold { return .regressed }
        if high < -threshold { return .improved }
        if low > -threshold, high < threshold { return .unchanged }
        return nil
    }

    /// The index of the look due at `pairs` pairs, if one is.
    package func lookIndex(atPairs pairs: Int) -> Int? { looks.firstIndex(of: pairs) }
}

/// A gate's decision rule that cannot work, named by the setting and value.
package enum GateRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The threshold is not a fraction in (0, 1).
    case threshold(Double)
    /// The total error is not in (0, 0.5).
    case alpha(Double)
    /// The first look or the most pairs cannot make a schedule.
    case looks(firstLook: Int, maxPairs: Int)
    /// The trimmed mean's trimming is not a fraction in (0, 0.5).
    case trimming(Double)

    package var description: String {
        switch self {
        case .threshold(let value):
            "--threshold \(value * 100)%: give a change between 0 and 100 percent (e.g. 2)"
        case .alpha(let value): "the gate's error rate \(value) must be above 0 and below 0.5 (e.g. 0.05)"
        case .looks(let first, let most):
            "the gate needs at least \(first) pairs before its first look but may take only \(most): raise --max-runs to \(first) or more"
        case .trimming(let value):
            "the trimmed mean's trimming \(value) must be above 0 and below 0.5 of each tail (e.g. 0.2)"
        }
    }
}
