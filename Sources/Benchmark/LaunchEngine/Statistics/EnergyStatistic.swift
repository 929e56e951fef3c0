/// The E-divisive candidate of one segment: the split that maximizes
/// Matteson & James's energy statistic Q̂ (α = 1; see `EDivisiveMeans`).
enum EnergyStatistic {
    /// The largest segment searched at once: Q̂ over every (τ, κ) needs
    /// a triangle of n²/2 sums (1,000 points: 4 MB, a few ms).
    static let largestSegment = 1_000

    /// The first index of the segment's second part, and its Q̂; nil for
    /// fewer than two points. Ties go to the smaller τ, then κ, as
    /// numpy's `argmax` in Otava's `PairDistanceCalculator` does.
    static func bestSplit(_ segment: ArraySlice<Double>) -> (index: Int, q: Double)? {
        let values = Array(segment.prefix(largestSegment))
        let count = values.count
        guard count >= 2 else { return nil }
        // prefix[j][t] = Σ_{i<t} |values[i] − values[j]|, for t ≤ j.
        var prefix: [[Double]] = []
        prefix.reserveCapacity(count)
        for j in 0..<count {
            var row = [Double](repeating: 0, count: j + 1)
            var sum = 0.0
            for i in 0..<j {
                sum += abs(values[i] - values[j])
                row[i + 1] = sum
            }
            prefix.append(row)
        }
        var best: (index: Int, q: Double)?
        var withinX = 0.0  // Σ_{i<k<τ} |xᵢ − xₖ|
        for tau in 1..<count {
            withinX += prefix[tau - 1][tau - 1]
            let n = Double(tau)
            var between = 0.0, withinY = 0.0
            for kappa in (tau + 1)...count {
                let column = prefix[kappa - 1]
                between += column[tau]
                withinY += column[kappa - 1] - column[tau]
                let m = Double(kappa - tau)
                var q = 2 / (m + n) * between
                if n > 1 { q -= 2 * m / ((m + n) * (n - 1)) * withinX }
                if m > 1 { q -= 2 * n / ((m + n) * (m - 1)) * withinY }
                if q > best?.q ?? -.infinity { best = (segment.startIndex + tau, q) }
            }
        }
        return best
    }
}
