/// The statistic a budget or a regression check judges a metric by.
public enum SummaryStatistic: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The smallest value.
    case min
    /// The median.
    case p50
    /// The 90th percentile.
    case p90
    /// The 95th percentile.
    case p95
    /// The 99th percentile.
    case p99
    /// The arithmetic mean.
    case mean
    /// The largest value.
    case max

    /// Parses `p50` (or `median`), `p90`, `p95`, `p99`, `mean`, `min`, `max`.
    public init?(parsing text: String) {
        if text == "median" {
            self = .p50
            return
        }
        self.init(rawValue: text)
    }

    public var description: String { rawValue }

    /// This statistic of a sample; nil for an empty sample.
    public func value(of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        switch self {
        case .mean: return Statistics.mean(values)
        case .min: return values.min()
        case .max: return values.max()
        case .p50: return Statistics.quantile(sorted: values.sorted(), 0.5)
        case .p90: return Statistics.quantile(sorted: values.sorted(), 0.9)
        case .p95: return Statistics.quantile(sorted: values.sorted(), 0.95)
        case .p99: return Statistics.quantile(sorted: values.sorted(), 0.99)
        }
    }

    /// This statistic as a summary holds it (the same quantile definition).
    public func value(in summary: MetricSummary) -> Double {
        switch self {
        case .min: summary.min
        case .p50: summary.median
        case .p90: summary.p90
        case .p95: summary.p95
        case .p99: summary.p99
        case .mean: summary.mean
        case .max: summary.max
        }
    }
}
