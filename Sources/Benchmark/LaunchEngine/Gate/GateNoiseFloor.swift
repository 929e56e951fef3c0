#if canImport(Glibc)
import Glibc
#endif

/// The base against itself: how far apart two runs of the same program on
/// the same CPU in the same session fall, and the smallest change the
/// session's pairs could detect.
public struct GateNoiseFloor: Sendable, Equatable, Codable {
    /// Base/base pairs used.
    public var pairs: Int
    /// Their median ratio, as a fraction: near 0 unless order or drift
    /// biases the session.
    public var change: Double
    /// The lower bound of its distribution-free 1 − α interval (sign test), as a fraction.
    public var low: Double
    /// The upper bound of that interval, as a fraction.
    public var high: Double
    /// The spread of one pair's log-ratio: 1.4826 × its median absolute
    /// deviation (a robust σ; Hampel 1974), as a fraction.
    public var spread: Double
    /// The minimum detectable effect: the change a two-sided test at level
    /// α on the median of `headPairs` pairs detects with 80% power,
    /// (z₁₋α/₂ + z₀.₈) · √(π/2) · spread / √n (the median's asymptotic
    /// variance is π/2 times the mean's for normal data: Serfling,
    /// *Approximation Theorems of Mathematical Statistics*, 1980, §2.3),
    /// as a fraction.
    public var minimumDetectableEffect: Double

    /// The floor of `baseLogRatios` for a session of `headPairs` head/base
    /// pairs at error `alpha`; nil with fewer than 6 base pairs.
    public init?(baseLogRatios: [Double], headPairs: Int, alpha: Double) {
        guard baseLogRatios.count >= 6, headPairs > 0, alpha > 0, alpha < 1,
            let ranks = MedianConfidenceInterval.ranks(count: baseLogRatios.count, confidence: 1 - alpha),
            let mad = Statistics.medianAbsoluteDeviation(baseLogRatios)
        else { return nil }
        let sorted = baseLogRatios.sorted()
        let (low, high) = ranks.bounds(in: sorted)
        pairs = sorted.count
        change = expm1(Statistics.quantile(sorted: sorted, 0.5) ?? 0)
        self.low = expm1(low)
        self.high = expm1(high)
        let sigma = 1.4826 * mad
        spread = expm1(sigma)
        let z =
            MedianConfidenceInterval.standardNormalQuantile(1 - alpha / 2)
            + MedianConfidenceInterval.standardNormalQuantile(0.8)
        minimumDetectableEffect = expm1(z * (Double.pi / 2).squareRoot() * sigma / Double(headPairs).squareRoot())
    }
}
