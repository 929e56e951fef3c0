#if canImport(Glibc)
import Glibc
#endif

/// A distribution-free confidence interval of the median from order statistics.
///
/// Method: the number of values below the true median of a continuous
/// distribution is Binomial(n, ½), so [x₍ₗ₎, x₍ₙ₋ₗ₊₁₎] covers the median with
/// probability 1 − 2·P(X ≤ l − 1). `l` is the largest rank whose coverage is
/// still at least the requested confidence (Conover, *Practical Nonparametric
/// Statistics*, 3rd ed. 1999, §3.2; Hollander & Wolfe, *Nonparametric
/// Statistical Methods*, §3.6). Exact binomial sums up to
/// `MedianConfidenceInterval.exactLimit` values; above that the normal
/// approximation l = ⌊n/2 − z·√n/2⌋, u = ⌈1 + n/2 + z·√n/2⌉, whose ranks agree
/// with the exact ones to within one at that size.
///
/// For 95%: n = 10 gives ranks 2 and 9, n = 20 gives 6 and 15, n = 100 gives
/// 40 and 61. With 5 values or fewer no pair of ranks reaches 95% (even
/// [min, max] covers only 1 − 2⁽¹⁻ⁿ⁾, 93.75% for n = 5): the interval is then
/// [min, max] and `coverage` says how much it really covers.
package struct MedianConfidenceInterval: Sendable, Equatable {
    /// Sample sizes up to this use exact binomial sums.
    package static let exactLimit = 1000

    /// 1-based rank of the lower bound in the ascending sample.
    package var lowerRank: Int
    /// 1-based rank of the upper bound (n − lowerRank + 1).
    package var upperRank: Int
    /// The probability that the interval covers the median (≥ the requested
    /// confidence, except for the tiny samples described above).
    package var coverage: Double

    /// An interval between the values of ranks `lowerRank` and `upperRank`.
    package init(lowerRank: Int, upperRank: Int, coverage: Double) {
        self.lowerRank = lowerRank
        self.upperRank = upperRank
        self.coverage = coverage
    }

    /// The ranks for a sample of `count` values; nil for an empty sample.
    package static func ranks(count n: Int, confidence: Double = 0.95) -> MedianConfidenceInterval? {
        precondition(confidence > 0 && confidence < 1, "confidence \(confidence) is outside (0, 1)")
        guard n > 0 else { return nil }
        return n <= exactLimit
            ? exactRanks(count: n, confidence: confidence)
            : normalApproximationRanks(count: n, confidence: confidence)
    }

    /// Exact ranks from the Binomial(n, ½) distribution.
    package static func exactRanks(count n: Int, confidence: Double) -> MedianConfidenceInterval {
        let tail = (1 - confidence) / 2
        // cdf[k] = P(X ≤ k), summed in log space so large n does not underflow.
        var cumulative = 0.0
        var lower = 0  // the largest l with P(X ≤ l − 1) ≤ tail, 0 when none
        var tailAtLower = 0.0
        for k in 0..<((n + 1) / 2) {
            cumulative += binomialHalfProbability(n: n, k: k)
            guard cumulative <= tail else { break }
            lower = k + 1
            tailAtLower = cumulative
        }
        guard lower >= 1 else {
            // No rank pair reaches the confidence: fall back to [min, max].
            let coverage = 1 - 2 * binomialHalfProbability(n: n, k: 0)
            return MedianConfidenceInterval(lowerRank: 1, upperRank: n, coverage: max(coverage, 0))
        }
        return MedianConfidenceInterval(lowerRank: lower, upperRank: n - lower + 1, coverage: 1 - 2 * tailAtLower)
    }

    /// Ranks from the normal approximation to Binomial(n, ½).
    package static func normalApproximationRanks(count n: Int, confidence: Double) -> MedianConfidenceInterval {
        let z = standardNormalQuantile(1 - (1 - confidence) / 2)
        let half = z * Double(n).squareRoot() / 2
        let lower = Swift.max(1, Int((Double(n) / 2 - half).rounded(.down)))
        let upper = Swift.min(n, Int((1 + Double(n) / 2 + half).rounded(.up)))
        // Coverage from the same approximation, with continuity correction.
        let zAtLower = (Double(lower) - 0.5 - Double(n) / 2) / (Double(n).squareRoot() / 2)
        let coverage = 1 - erfc(-zAtLower / 2.0.squareRoot())
        return MedianConfidenceInterval(lowerRank: lower, upperRank: upper, coverage: coverage)
    }

    /// The interval's bounds in an ascending sample of the matching size.
    package func bounds(in sorted: [Double]) -> (low: Double, high: Double) {
        precondition(upperRank <= sorted.count, "ranks are for a larger sample")
        return (sorted[lowerRank - 1], sorted[upperRank - 1])
    }

    /// P(X = k) for X ~ Binomial(n, ½), through lgamma so n in the thousands
    /// neither overflows nor underflows.
    private static func binomialHalfProbability(n: Int, k: Int) -> Double {
        let logChoose = lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
        return exp(logChoose - Double(n) * log(2.0))
    }

    /// Φ⁻¹(p) by bisection on erfc: 80 halvings of [-10, 10] reach full
    /// double precision, and this runs once per summary.
    package static func standardNormalQuantile(_ p: Double) -> Double {
        var low = -10.0
        var high = 10.0
        for _ in 0..<80 {
            let mid = (low + high) / 2
            if 0.5 * erfc(-mid / 2.0.squareRoot()) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }
}
