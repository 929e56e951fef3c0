/// The γ-trimmed mean of one sample and its confidence interval, with the
/// Tukey–McLaughlin standard error from the γ-Winsorized variance (the
/// one-sample form of Yuen's trimmed t; Tukey & McLaughlin, "Less
/// vulnerable confidence and significance procedures for location based
/// on a single sample", *Sankhyā A* 25, 1963; Wilcox, *Introduction to
/// Robust Estimation and Hypothesis Testing*, 4th ed., 2017, §4.5, whose
/// `trimci` this follows):
///
///     g = ⌊γn⌋, h = n − 2g, mean of the middle h values,
///     se = s_w / ((1 − 2γ)√n), where s_w² is the variance (divisor n − 1)
///     of the sample with its g lowest values set to the (g+1)-th and its
///     g highest to the (n−g)-th,
///     interval = mean ± t_{1−(1−c)/2, h−1} · se.
///
/// 20% trimming (γ = 0.2, Wilcox's default) keeps most of the mean's
/// efficiency on normal data and sheds a few far tails, yet unlike the
/// median it still moves when a change shifts how often a launch lands in
/// a slower step (docs/gate.md, "The trimmed mean's guard").
package struct TrimmedMeanInterval: Sendable, Equatable {
    /// The trimmed mean.
    package var mean: Double
    /// The interval's lower bound.
    package var low: Double
    /// The interval's upper bound.
    package var high: Double
    /// h − 1, the t distribution's degrees of freedom.
    package var degreesOfFreedom: Int

    /// The interval of `sorted` (ascending) at `confidence`, trimming
    /// `trimming` (0 ≤ γ < 0.5) of each tail; nil when fewer than two
    /// values would remain, or for a confidence outside (0, 1).
    package init?(sorted: [Double], trimming: Double, confidence: Double) {
        let n = sorted.count
        guard trimming >= 0, trimming < 0.5, confidence > 0, confidence < 1, n > 0 else { return nil }
        let g = Int((trimming * Double(n)).rounded(.down))
        let h = n - 2 * g
        guard h >= 2 else { return nil }
        let middle = sorted[g..<(n - g)]
        mean = middle.reduce(0, +) / Double(h)
        let lowest = sorted[g], highest = sorted[n - g - 1]
        let winsorizedMean = (middle.reduce(0, +) + Double(g) * (lowest + highest)) / Double(n)
        var squares = middle.reduce(0) { $0 + ($1 - winsorizedMean) * ($1 - winsorizedMean) }
        squares +=
            Double(g) * ((lowest - winsorizedMean) * (lowest - winsorizedMean) + (highest - winsorizedMean) * (highest - winsorizedMean))
        let winsorizedDeviation = (squares / Double(n - 1)).squareRoot()
        let standardError = winsorizedDeviation / ((1 - 2 * trimming) * Double(n).squareRoot())
        degreesOfFreedom = h - 1
        let t = StudentTTest.quantile(1 - (1 - confidence) / 2, degreesOfFreedom: degreesOfFreedom)
        low = mean - t * standardError
        high = mean + t * standardError
    }
}
