/// Which confidence interval a gate's looks take of the paired log-ratios.
///
/// Neither of the two classic intervals wins everywhere on launch times
/// (docs/gate.md, "The interval"): on a quiet machine the pairs' log-ratios
/// are near normal and the signed-rank interval is the narrower; on a
/// loaded one most pairs are clean and a few are preempted by far, a sharp
/// peak with long tails, and the sign interval was 18–41% narrower. The
/// default takes both, each at half the error, and keeps their
/// intersection: it covers with probability at least the confidence (a
/// miss of the intersection is a miss of one of them: the union bound), so
/// it is never much wider than the better of the two.
public enum GateInterval: String, Sendable, Equatable, Codable, CaseIterable {
    /// The sign and signed-rank intervals each at confidence 1 − (1 − c)/2,
    /// intersected: the default.
    case both
    /// The Wilcoxon signed-rank interval and its Hodges–Lehmann estimate
    /// (`SignedRankConfidenceInterval`): about 95% efficient for normal
    /// data, assuming the log-ratios symmetric about the change, which
    /// same-CPU pairs of exchangeable runs are (docs/gate.md). The default.
    case signedRank = "signed-rank"
    /// The sign-test interval of the median (`MedianConfidenceInterval`):
    /// assumes no symmetry, about 64% efficient for normal data.
    case sign

    /// The estimate and interval of `sorted` (ascending, non-empty) at
    /// `confidence`, and what the chosen ranks cover; nil for an empty sample.
    func estimate(_ sorted: [Double], confidence: Double) -> (center: Double, low: Double, high: Double, coverage: Double)? {
        guard !sorted.isEmpty else { return nil }
        switch self {
        case .both:
            let half = 1 - (1 - confidence) / 2
            guard let sign = GateInterval.sign.estimate(sorted, confidence: half),
                let ranks = GateInterval.signedRank.estimate(sorted, confidence: half)
            else { return nil }
            // Each misses with at most half the error, so the intersection
            // misses with at most all of it.
            let coverage = Swift.max(0, 1 - (1 - sign.coverage) - (1 - ranks.coverage))
            let low = Swift.max(sign.low, ranks.low)
            let high = Swift.min(sign.high, ranks.high)
            // The estimate of the narrower one; disjoint intervals (one of
            // them missed) give their hull, which covers whenever either does.
            let narrower = sign.high - sign.low < ranks.high - ranks.low ? sign : ranks
            guard low <= high else {
                return (narrower.center, Swift.min(sign.low, ranks.low), Swift.max(sign.high, ranks.high), coverage)
            }
            return (Swift.min(Swift.max(narrower.center, low), high), low, high, coverage)
        case .signedRank:
            guard let ranks = SignedRankConfidenceInterval.ranks(count: sorted.count, confidence: confidence) else { return nil }
            let (low, high) = ranks.bounds(in: sorted)
            return (SignedRankConfidenceInterval.hodgesLehmann(sorted), low, high, ranks.coverage)
        case .sign:
            guard let ranks = MedianConfidenceInterval.ranks(count: sorted.count, confidence: confidence) else { return nil }
            let (low, high) = ranks.bounds(in: sorted)
            return (Statistics.quantile(sorted: sorted, 0.5) ?? 0, low, high, ranks.coverage)
        }
    }
}
