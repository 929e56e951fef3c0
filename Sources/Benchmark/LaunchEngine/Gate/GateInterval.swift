/// Which confidence interval a gate's looks take of the paired log-ratios.
public enum GateInterval: String, Sendable, Equatable, Codable, CaseIterable {
    /// The Wilcoxon signed-rank interval and its Hodges–Lehmann estimate
    /// (``SignedRankConfidenceInterval``): about 95% efficient for normal
    /// data, assuming the log-ratios symmetric about the change, which
    /// same-CPU pairs of exchangeable runs are (docs/gate.md). The default.
    case signedRank = "signed-rank"
    /// The sign-test interval of the median (``MedianConfidenceInterval``):
    /// assumes no symmetry, about 64% efficient for normal data.
    case sign

    /// The estimate and interval of `sorted` (ascending, non-empty) at
    /// `confidence`, and what the chosen ranks cover; nil for an empty sample.
    func estimate(_ sorted: [Double], confidence: Double) -> (center: Double, low: Double, high: Double, coverage: Double)? {
        guard !sorted.isEmpty else { return nil }
        switch self {
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
