#if canImport(Glibc)
import Glibc
#endif

/// How a gate's total error α is spent over its looks at the data: the
/// error allowed by information fraction t (pairs so far over the most the
/// session may take), from the Lan–DeMets spending functions (Lan & DeMets,
/// "Discrete sequential boundaries for clinical trials", *Biometrika* 70,
/// 1983, 659–663; Jennison & Turnbull, *Group Sequential Methods with
/// Applications to Clinical Trials*, 2000, §7.2).
public enum ErrorSpending: String, Sendable, Equatable, Codable, CaseIterable {
    /// Pocock-type, α·ln(1 + (e − 1)·t): spends early, so large changes are
    /// called after few runs.
    case pocock
    /// O'Brien–Fleming-type, 2 − 2Φ(z₁₋α/₂ / √t): spends almost nothing
    /// early and keeps the final look near the nominal level.
    case obrienFleming = "obrien-fleming"

    /// The error spent by information fraction `t` (clamped to 0…1) of a
    /// total `alpha`.
    public func cumulative(alpha: Double, at t: Double) -> Double {
        let t = Swift.min(Swift.max(t, 0), 1)
        guard t > 0 else { return 0 }
        switch self {
        case .pocock:
            return alpha * Glibc.log(1 + (M_E - 1) * t)
        case .obrienFleming:
            let z = MedianConfidenceInterval.standardNormalQuantile(1 - alpha / 2)
            return Swift.min(alpha, erfc(z / t.squareRoot() / 2.0.squareRoot()))
        }
    }
}
