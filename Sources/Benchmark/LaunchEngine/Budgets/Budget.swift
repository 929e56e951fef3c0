import LaunchSupport

/// A limit on one statistic of one metric of a target's launches, as a
/// config file states it: "time to ready p95 of sample-app (warm) at most
/// 40 ms", or "… at most 1.2× that of hello-c, measured in the same run".
public struct Budget: Sendable, Equatable {
    /// How high the statistic may be.
    public enum Limit: Sendable, Equatable, CustomStringConvertible {
        /// In the metric's base unit (ns, bytes, count).
        case absolute(Quantity)
        /// At most `factor` times the same statistic of `reference`, in the
        /// same mode, measured interleaved in the same run; of the reference's
        /// `metric` when given (a milestone against a hello-world's exit),
        /// else of the budget's own metric.
        case ratio(Double, reference: String, metric: Metric? = nil)

        public var description: String {
            switch self {
            case .absolute(let quantity): "<= \(quantity)"
            case let .ratio(factor, reference, metric):
                "<= \(HumanUnits.significant(factor))x \(reference)" + (metric.map { " \($0.key)" } ?? "")
            }
        }
    }

    /// The name of the target the budget limits.
    public var target: String
    /// nil: every mode the target runs in.
    public var mode: LaunchMode?
    /// The metric limited.
    public var metric: Metric
    /// The statistic of the metric over the runs (p50 by default).
    public var statistic: SummaryStatistic
    /// The limit: absolute, or a ratio to a reference target.
    public var limit: Limit
    /// Regression threshold for this metric (0.05 = 5%); nil: the global one.
    public var threshold: Double?
    /// Where the budget was written ("launchprof.yml:14"), for messages.
    public var source: String?

    /// A budget on `statistic` of `metric` of `target`'s runs in `mode` (every mode when nil).
    public init(
        target: String, mode: LaunchMode? = nil, metric: Metric, statistic: SummaryStatistic = .p50, limit: Limit,
        threshold: Double? = nil, source: String? = nil
    ) {
        self.target = target
        self.mode = mode
        self.metric = metric
        self.statistic = statistic
        self.limit = limit
        self.threshold = threshold
        self.source = source
    }
}

extension Budget.Limit {
    /// Parses `40ms`, `<= 40ms`, `1.2x hello-c`, `<= 1.2× hello-c`,
    /// `3x hello-c wall_to_exit`; a ratio without a name is relative to
    /// `defaultReference`.
    public init(parsing text: String, defaultReference: String?) throws(BudgetLimitError) {
        var rest = Substring(text)
        rest = rest.drop { $0 == " " }
        for prefix in ["<=", "≤"] where rest.hasPrefix(prefix) { rest = rest.dropFirst(prefix.count).drop { $0 == " " } }
        let words = rest.split(separator: " ", omittingEmptySubsequences: true)
        if let first = words.first, let last = first.last, last == "x" || last == "×",
            let factor = Double(first.dropLast())
        {
            guard factor.isFinite, factor > 0 else { throw .badRatio(text) }
            guard words.count <= 3 else { throw .badRatio(text) }
            guard let reference = words.count >= 2 ? String(words[1]) : defaultReference else {
                throw .ratioWithoutReference(text)
            }
            var metric: Metric?
            if words.count == 3 {
                let key = String(words[2])
                guard let parsed = Metric(key: Metric.aliases[key] ?? key) else { throw .unknownMetric(text, key) }
                metric = parsed
            }
            self = .ratio(factor, reference: reference, metric: metric)
            return
        }
        do {
            self = .absolute(try Quantity(parsing: String(rest)))
        } catch {
            throw .quantity(error)
        }
    }
}

extension Budget {
    /// A budget as a config file states one, for code and tests:
    /// `try Budget("server", .wallToReady, "1.5x hello-c")` (at most 1.5 times
    /// hello-c's median, measured in the same run) or
    /// `try Budget("server", .maxRSS, "40MiB")`. A ratio names its reference.
    public init(
        _ target: String, _ metric: Metric, _ limit: String, statistic: SummaryStatistic = .p50, mode: LaunchMode? = nil
    ) throws(BudgetLimitError) {
        self.init(
            target: target, mode: mode, metric: metric, statistic: statistic,
            limit: try Limit(parsing: limit, defaultReference: nil))
    }
}
