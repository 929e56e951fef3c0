import LaunchSupport

/// How a target compares with the reference target on one metric: the ratio
/// of their medians with a confidence interval.
///
/// Method: `BootstrapRatio` of the medians, a two-sample percentile bootstrap (Efron &
/// Tibshirani, *An Introduction to the Bootstrap*, 1993, ch. 13): resample
/// each sample with replacement, independently, `resamples` times; take the
/// 2.5% and 97.5% quantiles of the resampled ratios. The generator has a fixed
/// seed so the same runs always give the same interval.
package struct RelativeComparison: Sendable, Equatable {
    /// median(target) / median(reference); above 1 means slower (or larger).
    package var ratio: Double
    /// The lower end of the ratio's confidence interval.
    package var low: Double
    /// The upper end of the ratio's confidence interval.
    package var high: Double
    /// The interval's confidence level.
    package var confidence: Double

    /// A comparison with these values.
    package init(ratio: Double, low: Double, high: Double, confidence: Double = 0.95) {
        self.ratio = ratio
        self.low = low
        self.high = high
        self.confidence = confidence
    }

    /// Compares `target` with `reference`; nil when either is empty or the
    /// reference median is 0 (no ratio exists).
    package init?(
        target: [Double], reference: [Double], confidence: Double = 0.95, resamples: Int = 2000,
        seed: UInt64 = BootstrapRatio.defaultSeed
    ) {
        guard
            let bootstrap = BootstrapRatio(
                target, over: reference, statistic: .p50, confidence: confidence, resamples: resamples, seed: seed)
        else { return nil }
        self.init(ratio: bootstrap.ratio, low: bootstrap.low, high: bootstrap.high, confidence: confidence)
    }

    /// Half the interval's width, for "1.84× ± 0.05".
    package var halfWidth: Double { (high - low) / 2 }

    /// "1.84× ± 0.05 slower than hello-c", "2.10× ± 0.12 faster than hello-c"
    /// (a ratio below 1 is inverted so the factor reads naturally), or "as fast as".
    package func phrase(reference name: String) -> String {
        if ratio == 1 && low == 1 && high == 1 { return "as fast as \(name)" }
        if ratio >= 1 {
            return "\(Self.factor(ratio, halfWidth)) slower than \(name)"
        }
        // Inverting maps the interval [low, high] to [1/high, 1/low].
        let inverted = RelativeComparison(ratio: 1 / ratio, low: 1 / high, high: low > 0 ? 1 / low : .infinity)
        return "\(Self.factor(inverted.ratio, inverted.halfWidth)) faster than \(name)"
    }

    /// "1.84× ± 0.05", "14.2× ± 0.8", "198× ± 72": two decimals for small
    /// factors, three significant digits for large ones, the spread alike.
    private static func factor(_ ratio: Double, _ halfWidth: Double) -> String {
        guard ratio.isFinite, halfWidth.isFinite else { return "\(HumanUnits.significant(ratio))× ± ∞" }
        let decimals = ratio < 10 ? 2 : ratio < 100 ? 1 : 0
        return "\(HumanUnits.fixed(ratio, decimals: decimals))× ± \(HumanUnits.fixed(halfWidth, decimals: decimals))"
    }
}
