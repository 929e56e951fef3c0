#if canImport(Glibc)
import Glibc
#endif

/// The Wilcoxon signed-rank confidence interval of the centre of a
/// symmetric distribution, and its Hodges–Lehmann estimate.
///
/// Method: of the n(n+1)/2 Walsh averages (xᵢ + xⱼ)/2, i ≤ j, the number
/// above the true centre θ of a continuous distribution symmetric about θ
/// is the signed-rank statistic T⁺, so [W₍ₖ₎, W₍ₙ₍ₙ₊₁₎/₂₋ₖ₊₁₎] covers θ with
/// probability 1 − 2·P(T⁺ ≤ k − 1); the estimate is the median of the Walsh
/// averages (Hodges & Lehmann, *Ann. Math. Statist.* 34, 1963, 598–611;
/// Hollander, Wolfe & Chicken, *Nonparametric Statistical Methods*, 3rd ed.
/// 2014, §3.2–3.3). For normal data it is about 95% as efficient as the
/// t interval (3/π), where the sign-test interval of the median
/// (`MedianConfidenceInterval`) is 64% (2/π): at the same confidence its
/// interval is about 18% narrower, and it stays robust to a long tail. It
/// needs symmetry, which the sign test does not: docs/gate.md argues why a
/// gate's same-CPU paired log-ratios have it.
///
/// The exact null distribution of T⁺ is used up to ``exactLimit`` values,
/// the normal approximation with continuity correction above. The k-th
/// Walsh average is found without forming all n(n+1)/2 of them: a bisection
/// on the value, counting the averages at or below it with two pointers in
/// O(n) (so a look at 10,000 pairs costs a few million steps, not 50
/// million averages sorted).
package struct SignedRankConfidenceInterval: Sendable, Equatable {
    /// Sample sizes up to this use the exact distribution of T⁺.
    package static let exactLimit = 80

    /// 1-based rank of the lower bound among the Walsh averages.
    package var lowerRank: Int
    /// 1-based rank of the upper bound (n(n+1)/2 − lowerRank + 1).
    package var upperRank: Int
    /// The probability that the interval covers the centre (below the
    /// requested confidence only for samples too small to reach it: then
    /// the interval is [min, max] of the Walsh averages).
    package var coverage: Double

    /// The ranks for a sample of `count` values at `confidence`; nil for an
    /// empty sample or a confidence outside (0, 1).
    package static func ranks(count n: Int, confidence: Double) -> SignedRankConfidenceInterval? {
        guard n > 0, confidence > 0, confidence < 1 else { return nil }
        let walsh = n * (n + 1) / 2
        let tail = (1 - confidence) / 2
        var lower = 0
        var tailAtLower = 0.0
        if n <= exactLimit {
            let cdf = exactDistributions[n]
            for sum in 0...(walsh / 2) {
                guard cdf[sum] <= tail else { break }
                lower = sum + 1
                tailAtLower = cdf[sum]
            }
        } else {
            let mean = Double(walsh) / 2
            let sd = (Double(n) * Double(n + 1) * Double(2 * n + 1) / 24).squareRoot()
            let z = MedianConfidenceInterval.standardNormalQuantile(1 - tail)
            lower = Swift.max(0, Int((mean - z * sd + 0.5).rounded(.down)))
            tailAtLower = 0.5 * erfc(-((Double(lower) - 0.5 - mean) / sd) / 2.0.squareRoot())
        }
        guard lower >= 1 else {
            return SignedRankConfidenceInterval(
                lowerRank: 1, upperRank: walsh, coverage: Swift.max(0, 1 - 2 * pow(0.5, Double(n))))
        }
        return SignedRankConfidenceInterval(lowerRank: lower, upperRank: walsh - lower + 1, coverage: 1 - 2 * tailAtLower)
    }

    /// P(T⁺ ≤ s) for s = 0…n(n+1)/2, for each n up to ``exactLimit``:
    /// made once, in one pass (after rank n is added, the counts of subsets
    /// of {1…n} by rank sum, over 2ⁿ, are n's distribution).
    static let exactDistributions: [[Double]] = {
        let most = exactLimit * (exactLimit + 1) / 2
        var counts = [Double](repeating: 0, count: most + 1)
        counts[0] = 1
        var distributions: [[Double]] = [[1]]
        for n in 1...exactLimit {
            let walsh = n * (n + 1) / 2
            for sum in stride(from: walsh, through: n, by: -1) { counts[sum] += counts[sum - n] }
            let total = pow(2.0, Double(n))
            var cumulative = 0.0
            distributions.append(
                (0...walsh).map { sum in
                    cumulative += counts[sum] / total
                    return cumulative
                })
        }
        return distributions
    }()

    /// An interval between the Walsh averages of ranks `lowerRank` and `upperRank`.
    package init(lowerRank: Int, upperRank: Int, coverage: Double) {
        self.lowerRank = lowerRank
        self.upperRank = upperRank
        self.coverage = coverage
    }

    /// The interval's bounds in an ascending sample of the matching size.
    package func bounds(in sorted: [Double]) -> (low: Double, high: Double) {
        (Self.walshAverage(rank: lowerRank, in: sorted), Self.walshAverage(rank: upperRank, in: sorted))
    }

    /// The Hodges–Lehmann estimate: the median of the Walsh averages of an
    /// ascending, non-empty sample.
    package static func hodgesLehmann(_ sorted: [Double]) -> Double {
        let walsh = sorted.count * (sorted.count + 1) / 2
        if walsh % 2 == 1 { return walshAverage(rank: (walsh + 1) / 2, in: sorted) }
        return (walshAverage(rank: walsh / 2, in: sorted) + walshAverage(rank: walsh / 2 + 1, in: sorted)) / 2
    }

    /// The `rank`-th smallest (1-based) of the Walsh averages of an
    /// ascending, non-empty sample: the smallest value v with at least
    /// `rank` averages at or below it, found by bisection on v to within
    /// 10⁻⁹ of the sample's range (30 halvings; bisecting to the last bit
    /// would take a thousand near zero, where doubles are dense), then
    /// snapped onto the largest average at or below the bracket's top.
    package static func walshAverage(rank: Int, in sorted: [Double]) -> Double {
        guard let first = sorted.first, let last = sorted.last else { return .nan }
        var low = first  // fewer than `rank` averages are at or below `low`…
        var high = last  // …and at least `rank` are at or below `high`
        if count(atOrBelow: low, in: sorted) >= rank { return low }
        let tolerance = (last - first) * 1e-9
        while true {
            let mid = low + (high - low) / 2
            guard high - low > tolerance, mid > low, mid < high else { return largest(atOrBelow: high, in: sorted) }
            if count(atOrBelow: mid, in: sorted) >= rank { high = mid } else { low = mid }
        }
    }

    /// The largest Walsh average at or below `value` (the bisection's
    /// `high`, snapped onto the average it brackets), or `value` if none is.
    static func largest(atOrBelow value: Double, in sorted: [Double]) -> Double {
        sorted.withUnsafeBufferPointer { values in
            var best = -Double.infinity
            var j = values.count - 1
            let bound = 2 * value
            for i in 0..<values.count {
                while j >= i, values[i] + values[j] > bound { j -= 1 }
                guard j >= i else { break }
                best = Swift.max(best, (values[i] + values[j]) / 2)
            }
            return best == -.infinity ? value : best
        }
    }

    /// How many Walsh averages (xᵢ + xⱼ)/2, i ≤ j, are at or below `value`:
    /// for each i, the j ≥ i with xⱼ ≤ 2·value − xᵢ; that bound only falls as
    /// i grows, so one pointer walks down once.
    static func count(atOrBelow value: Double, in sorted: [Double]) -> Int {
        sorted.withUnsafeBufferPointer { values in
            var total = 0
            var j = values.count - 1
            let bound = 2 * value
            for i in 0..<values.count {
                let x = values[i]
                while j >= i, x + values[j] > bound { j -= 1 }
                guard j >= i else { break }
                total += j - i + 1
            }
            return total
        }
    }
}
