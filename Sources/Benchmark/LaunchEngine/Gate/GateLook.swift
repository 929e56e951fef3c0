/// One look at a gate's pairs: the change's estimate and interval at that
/// look's confidence, and the verdict if the interval decides it.
public struct GateLook: Sendable, Equatable, Codable {
    /// Pairs (head run, base run on the same CPU) looked at.
    public var pairs: Int
    /// The change's estimate, head over base, as a fraction (0.03 = +3%):
    /// the median (sign interval), the Hodges–Lehmann estimate
    /// (signed-rank), or with both the estimate of the narrower interval.
    public var change: Double
    /// The interval's lower bound, as a fraction.
    public var low: Double
    /// The interval's upper bound, as a fraction.
    public var high: Double
    /// The confidence this look's interval was asked for (1 − the error
    /// the spending schedule gives the look).
    public var confidence: Double
    /// What the order statistics chosen actually cover (≥ `confidence`
    /// when the sample is large enough to decide at all).
    public var coverage: Double
    /// The verdict, or nil: keep measuring.
    public var verdict: ChangeVerdict?
    /// With the trimmed mean's guard (docs/gate.md, "The trimmed mean's
    /// guard"): the pairs' trimmed mean, as a fraction; nil without it.
    public var trimmedChange: Double?
    /// The lower bound of the trimmed mean's interval, as a fraction.
    public var trimmedLow: Double?
    /// The upper bound of the trimmed mean's interval, as a fraction.
    public var trimmedHigh: Double?

    /// A look at `pairs` pairs.
    public init(
        pairs: Int, change: Double, low: Double, high: Double, confidence: Double, coverage: Double, verdict: ChangeVerdict?,
        trimmedChange: Double? = nil, trimmedLow: Double? = nil, trimmedHigh: Double? = nil
    ) {
        self.pairs = pairs
        self.change = change
        self.low = low
        self.high = high
        self.confidence = confidence
        self.coverage = coverage
        self.verdict = verdict
        self.trimmedChange = trimmedChange
        self.trimmedLow = trimmedLow
        self.trimmedHigh = trimmedHigh
    }

    /// Half the interval's width: how precisely this look knew the change.
    public var halfWidth: Double { (high - low) / 2 }

    /// Whether the trimmed mean's interval lies beyond ±`threshold` where
    /// the median's lies within it: the guard alone kept this look from
    /// saying unchanged (docs/gate.md, "The trimmed mean's guard").
    package func isHeldByTrimmedMean(threshold: Double) -> Bool {
        guard let trimmedLow, let trimmedHigh, !isShortOfConfidence else { return false }
        return SequentialDecisionRule.verdict(low: low, high: high, threshold: threshold) == .unchanged
            && SequentialDecisionRule.verdict(low: trimmedLow, high: trimmedHigh, threshold: threshold) != .unchanged
    }

    /// The estimate and interval that must narrow for this look to decide:
    /// the trimmed mean's when only its guard held the verdict, else the
    /// median-type one.
    package func pending(threshold: Double) -> (change: Double, low: Double, high: Double) {
        if isHeldByTrimmedMean(threshold: threshold), let trimmedChange, let trimmedLow, let trimmedHigh {
            return (trimmedChange, trimmedLow, trimmedHigh)
        }
        return (change, low, high)
    }

    /// Whether the interval covers less than it was asked to (too few
    /// pairs for any pair of ranks to reach the confidence): such a look
    /// decides nothing and resolves no change.
    package var isShortOfConfidence: Bool { coverage < confidence }
}
