import Foundation

/// The Mann–Whitney U test (Wilcoxon rank-sum test) of two independent
/// samples, two-sided: does one tend to have larger values than the other?
///
/// It assumes nothing about the shape of the distributions, which suits
/// launch times (skewed, with a long right tail). The p-value follows
/// SciPy's `scipy.stats.mannwhitneyu(x, y, alternative="two-sided")` with
/// its default `method="auto"`: the exact distribution of U when a sample
/// has fewer than 8 values and there are no ties, otherwise the normal
/// approximation with tie correction and continuity correction
/// (Mann & Whitney 1947; Hollander, Wolfe & Chicken, *Nonparametric
/// Statistical Methods*, 3rd ed., §4.1).
package struct MannWhitneyU: Sendable, Equatable {
    /// U of the first sample: the number of pairs (x, y) with x > y, ties
    /// counting one half.
    package var u: Double
    /// Two-sided p-value, in 0...1.
    package var pValue: Double
    /// Which method gave the p-value.
    package var method: Method

    /// How the p-value was computed.
    package enum Method: String, Sendable, Equatable {
        /// From the exact distribution of U (small samples without ties).
        case exact
        /// From the normal approximation, with tie and continuity corrections.
        case asymptotic
    }

    /// Tests `x` against `y`; nil when either sample is empty.
    package init?(_ x: [Double], _ y: [Double]) {
        guard !x.isEmpty, !y.isEmpty else { return nil }
        let n1 = Double(x.count), n2 = Double(y.count)
        let (ranks, tieSizes) = Self.midranks(x + y)
        let rankSumX = ranks[0..<x.count].reduce(0, +)
        u = rankSumX - n1 * (n1 + 1) / 2
        let larger = max(u, n1 * n2 - u)
        if min(x.count, y.count) < 8, tieSizes.isEmpty {
            method = .exact
            pValue = min(1, 2 * Self.exactUpperTail(atLeast: Int(larger.rounded()), x.count, y.count))
        } else {
            method = .asymptotic
            let n = n1 + n2
            let tieTerm = tieSizes.reduce(0.0) { $0 + Double($1 * $1 * $1 - $1) }
            let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
            guard variance > 0 else {
                // Every value equal: no evidence of any difference.
                pValue = 1
                return
            }
            let z = (larger - n1 * n2 / 2 - 0.5) / variance.squareRoot()
            // Two-sided: 2 · P(Z ≥ z), with erfc for accuracy in the tail.
            pValue = min(1, max(0, erfc(z / 2.0.squareRoot())))
        }
    }

    /// Midranks (ties get the mean of their ranks), 1-based, in input order,
    /// and the sizes of the groups of ties (groups of 2 or more).
    static func midranks(_ values: [Double]) -> (ranks: [Double], tieSizes: [Int]) {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var tieSizes: [Int] = []
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count, values[order[end + 1]] == values[order[start]] { end += 1 }
            let rank = Double(start + end) / 2 + 1
            for position in start...end { ranks[order[position]] = rank }
            if end > start { tieSizes.append(end - start + 1) }
            start = end + 1
        }
        return (ranks, tieSizes)
    }

    /// P(U ≥ u) under the null hypothesis for samples of sizes m and n
    /// without ties. With f(i, j, k) the number of orderings of i x's and
    /// j y's with U = k, the largest value is either an x, which beats all
    /// j y's, or a y: f(i, j, k) = f(i - 1, j, k - j) + f(i, j - 1, k).
    /// `m` and `n` are at least 1.
    static func exactUpperTail(atLeast u: Int, _ m: Int, _ n: Int) -> Double {
        let maxU = m * n
        guard u > 0 else { return 1 }
        guard u <= maxU else { return 0 }
        // previous[i][k] = f(i, j - 1, k); j = 0 gives U = 0 for every i.
        var previous = (0...m).map { _ in [Double](repeating: 0, count: maxU + 1) }
        for i in 0...m { previous[i][0] = 1 }
        for j in 1...n {
            var current = (0...m).map { _ in [Double](repeating: 0, count: maxU + 1) }
            current[0][0] = 1
            for i in 1...m {
                for k in 0...(i * j) {
                    current[i][k] = (k >= j ? current[i - 1][k - j] : 0) + previous[i][k]
                }
            }
            previous = current
        }
        let row = previous[m]
        return row[u...].reduce(0, +) / row.reduce(0, +)
    }
}
