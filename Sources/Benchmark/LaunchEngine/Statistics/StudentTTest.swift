import Foundation

/// Student's two-sample t-test with pooled variance (equal variances
/// assumed), two-sided: do two samples have different means?
///
/// It is the significance test Hunter and Apache Otava apply to each
/// change point E-divisive proposes (Fleming et al., "Hunter: Using Change
/// Point Detection to Hunt for Performance Regressions", ICPE 2023,
/// doi:10.1145/3578244.3583719; Otava's `TTestSignificanceTester`, SciPy's
/// `ttest_ind_from_stats` with `equal_var=True`). Student's test pools the
/// sample variances (divisor n − 1); Otava passes numpy's default standard
/// deviations (divisor n) instead, which makes its p-values somewhat
/// smaller. `varianceDivisor: .count` reproduces Otava's, so that a
/// change-point p-value and its 0.001 default mean what they mean there.
///
/// The p-value is 2·P(T ≥ |t|) with ν = n₁ + n₂ − 2 degrees of freedom:
/// I_{ν/(ν+t²)}(ν/2, 1/2), the regularized incomplete beta function by its
/// continued fraction (Lentz's method; Press et al., *Numerical Recipes*,
/// 3rd ed., §6.4).
package struct StudentTTest: Sendable, Equatable {
    /// The t statistic (positive when the second sample's mean is larger).
    package var t: Double
    /// Degrees of freedom, n₁ + n₂ − 2.
    package var degreesOfFreedom: Int
    /// Two-sided p-value, in 0...1.
    package var pValue: Double

    /// How each sample's variance is taken before pooling.
    package enum VarianceDivisor: Sendable, Equatable {
        /// n − 1: the sample variance, Student's (and SciPy's `ttest_ind`).
        case degreesOfFreedom
        /// n: the population variance of the sample, as Otava passes it.
        case count
    }

    /// Tests `x` against `y`. With fewer than three values in all (no degree
    /// of freedom) there is no evidence: t 0, p 1. With no variance in
    /// either sample, different means are certain (p 0) and equal ones
    /// are not different (p 1), as SciPy's limits give.
    package init<X: Collection<Double>, Y: Collection<Double>>(
        _ x: X, _ y: Y, varianceDivisor: VarianceDivisor = .degreesOfFreedom
    ) {
        let n1 = x.count, n2 = y.count
        degreesOfFreedom = max(0, n1 + n2 - 2)
        guard n1 > 0, n2 > 0, degreesOfFreedom > 0 else {
            t = 0
            pValue = 1
            return
        }
        let mean1 = x.reduce(0, +) / Double(n1), mean2 = y.reduce(0, +) / Double(n2)
        var squares1 = x.reduce(0) { $0 + ($1 - mean1) * ($1 - mean1) }
        var squares2 = y.reduce(0) { $0 + ($1 - mean2) * ($1 - mean2) }
        if varianceDivisor == .count {
            // (n − 1)·(SS/n): SciPy's pooling of a standard deviation taken with divisor n.
            squares1 *= Double(n1 - 1) / Double(n1)
            squares2 *= Double(n2 - 1) / Double(n2)
        }
        let pooled = (squares1 + squares2) / Double(degreesOfFreedom)
        let standardError = (pooled * (1 / Double(n1) + 1 / Double(n2))).squareRoot()
        guard standardError > 0, standardError.isFinite else {
            t = mean1 == mean2 ? 0 : (mean2 > mean1 ? .infinity : -.infinity)
            pValue = mean1 == mean2 ? 1 : 0
            return
        }
        t = (mean2 - mean1) / standardError
        let nu = Double(degreesOfFreedom)
        pValue = min(1, max(0, Self.regularizedIncompleteBeta(nu / (nu + t * t), a: nu / 2, b: 0.5)))
    }

    /// The quantile of Student's t distribution with `degreesOfFreedom`
    /// at `p` (0 < p < 1), by bisection on its distribution function,
    /// P(T ≤ t) = 1 − I_{ν/(ν+t²)}(ν/2, 1/2)/2 for t ≥ 0: 200 halvings
    /// reach full double precision, and a gate calls it once a look.
    package static func quantile(_ p: Double, degreesOfFreedom: Int) -> Double {
        guard p > 0, p < 1, degreesOfFreedom > 0 else { return p >= 0.5 ? .infinity : -.infinity }
        if p < 0.5 { return -quantile(1 - p, degreesOfFreedom: degreesOfFreedom) }
        let nu = Double(degreesOfFreedom)
        let upper = { (t: Double) in 0.5 * regularizedIncompleteBeta(nu / (nu + t * t), a: nu / 2, b: 0.5) }
        var low = 0.0
        var high = 1.0
        while upper(high) > 1 - p, high < 1e12 { high *= 2 }
        for _ in 0..<200 where high - low > 1e-14 * high {
            let mid = (low + high) / 2
            if upper(mid) > 1 - p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// I_x(a, b), for x in 0...1 and a, b > 0.
    static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        let logFront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)
        let front = exp(logFront)
        // The continued fraction converges fast for x < (a + 1) / (a + b + 2);
        // otherwise use the symmetry I_x(a, b) = 1 − I_{1−x}(b, a).
        if x < (a + 1) / (a + b + 2) {
            return front * continuedFraction(x, a: a, b: b) / a
        }
        return 1 - front * continuedFraction(1 - x, a: b, b: a) / b
    }

    /// The incomplete beta function's continued fraction, by the modified
    /// Lentz method (Numerical Recipes §6.4, `betacf`).
    private static func continuedFraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300, epsilon = 1e-15
        let qab = a + b, qap = a + 1, qam = a - 1
        var c = 1.0
        var d = 1 - qab * x / qap
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...300 {
            let m = Double(m), m2 = 2 * m
            var aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            h *= step
            if abs(step - 1) < epsilon { break }
        }
        return h
    }
}
