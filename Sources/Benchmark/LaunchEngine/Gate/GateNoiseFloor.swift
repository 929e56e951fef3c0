#if canImport(Glibc)
import Glibc
#endif

/// The base against itself: how far apart two runs of the same program on
/// the same CPU in the same session fall, and the smallest change the
/// session's pairs could detect.
public struct GateNoiseFloor: Sendable, Equatable, Codable {
    /// Base/base pairs used.
    public var pairs: Int
    /// Their ratio's centre (the estimate of the gate's interval), as a
    /// fraction: near 0 unless order or drift biases the session.
    public var change: Double
    /// The lower bound of its 1 − α interval (the gate's interval), as a fraction.
    public var low: Double
    /// The upper bound of that interval, as a fraction.
    public var high: Double
    /// The spread of one pair's log-ratio: 1.4826 × its median absolute
    /// deviation (a robust σ; Hampel 1974), as a fraction.
    public var spread: Double
    /// The minimum detectable effect: the change a two-sided test at level
    /// α on `headPairs` pairs detects with 80% power,
    /// (z₁₋α/₂ + z₀.₈) · √v · spread / √n, where v is the estimate's
    /// asymptotic variance relative to the mean's for normal data: π/3 for
    /// Hodges–Lehmann (Hodges & Lehmann 1963), π/2 for the median (Serfling,
    /// *Approximation Theorems of Mathematical Statistics*, 1980, §2.3);
    /// as a fraction.
    public var minimumDetectableEffect: Double

    /// The floor of `baseLogRatios` for a session of `headPairs` head/base
    /// pairs at error `alpha`, with the gate's `interval`; nil with fewer
    /// than 6 base pairs.
    public init?(baseLogRatios: [Double], headPairs: Int, alpha: Double, interval: GateInterval = .both) {
        let sorted = baseLogRatios.sorted()
        guard sorted.count >= 6, headPairs > 0, alpha > 0, alpha < 1,
            let (center, low, high, _) = interval.estimate(sorted, confidence: 1 - alpha),
            let mad = Statistics.medianAbsoluteDeviation(baseLogRatios)
        else { return nil }
        pairs = sorted.count
        change = expm1(center)
        self.low = expm1(low)
        self.high = expm1(high)
        let sigma = 1.4826 * mad
        spread = expm1(sigma)
        let z =
            MedianConfidenceInterval.standardNormalQuantile(1 - alpha / 2)
            + MedianConfidenceInterval.standardNormalQuantile(0.8)
        let variance = interval == .sign ? Double.pi / 2 : Double.pi / 3
        minimumDetectableEffect = expm1(z * variance.squareRoot() * sigma / Double(headPairs).squareRoot())
    }
}
