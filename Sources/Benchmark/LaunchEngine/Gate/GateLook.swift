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

    /// A look at `pairs` pairs.
    public init(
        pairs: Int, change: Double, low: Double, high: Double, confidence: Double, coverage: Double, verdict: ChangeVerdict?
    ) {
        self.pairs = pairs
        self.change = change
        self.low = low
        self.high = high
        self.confidence = confidence
        self.coverage = coverage
        self.verdict = verdict
    }

    /// Half the interval's width: how precisely this look knew the change.
    public var halfWidth: Double { (high - low) / 2 }

    /// Whether the interval covers less than it was asked to (too few
    /// pairs for any pair of ranks to reach the confidence): such a look
    /// decides nothing and resolves no change.
    package var isShortOfConfidence: Bool { coverage < confidence }
}
