#if canImport(Glibc)
import Glibc
#endif

/// Descriptive statistics of a sample of `Double`s.
///
/// Every function states what it returns for the edge cases instead of
/// trapping or returning NaN: `nil` when the statistic is undefined for the
/// sample (an empty sample; a standard deviation of one value).
package enum Statistics {
    /// The arithmetic mean, nil for an empty sample.
    package static func mean(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return values.reduce(0, +) / Double(values.count)
    }

    /// The sample standard deviation (Bessel's correction, divisor n - 1);
    /// nil for fewer than two values, where it is undefined.
    package static func standardDeviation(_ values: [Double]) -> Double? {
        guard values.count >= 2, let mean = mean(values) else { return nil }
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (squares / Double(values.count - 1)).squareRoot()
    }

    /// The `p`-quantile (0...1) of an ascending sample, by linear interpolation
    /// between order statistics: Hyndman & Fan (1996) definition 7, R's default
    /// `quantile(type = 7)` and numpy's default `method="linear"`.
    /// With h = (n - 1)·p, it is x[⌊h⌋] + (h - ⌊h⌋)·(x[⌊h⌋ + 1] - x[⌊h⌋]) (0-based).
    /// nil for an empty sample.
    package static func quantile(sorted: [Double], _ p: Double) -> Double? {
        precondition((0...1).contains(p), "quantile \(p) is outside 0...1")
        guard let first = sorted.first else { return nil }
        guard sorted.count > 1 else { return first }
        let h = Double(sorted.count - 1) * p
        let lower = Int(h.rounded(.down))
        guard lower + 1 < sorted.count else { return sorted[sorted.count - 1] }
        let fraction = h - Double(lower)
        return sorted[lower] + fraction * (sorted[lower + 1] - sorted[lower])
    }

    /// The median (the mean of the two middle values for an even count), nil
    /// for an empty sample.
    package static func median(_ values: [Double]) -> Double? {
        quantile(sorted: values.sorted(), 0.5)
    }

    /// The median absolute deviation from the median, unscaled (multiply by
    /// 1.4826 to estimate σ of a normal distribution). nil for an empty sample.
    /// It is 0 when more than half the values are equal; callers that divide
    /// by it (outlier detection) must handle that case.
    package static func medianAbsoluteDeviation(_ values: [Double]) -> Double? {
        guard let center = median(values) else { return nil }
        return median(values.map { abs($0 - center) })
    }
}
