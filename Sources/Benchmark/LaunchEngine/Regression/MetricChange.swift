import LaunchSupport

/// How one metric of one target and mode changed from a baseline to now.
public struct MetricChange: Sendable, Equatable, Codable {
    /// How a change is judged.
    public enum Verdict: String, Sendable, Equatable, Codable {
        /// Worse by more than the threshold, and significant.
        case regressed
        /// Better by more than the threshold, and significant.
        case improved
        /// Neither: within the threshold, or not significant.
        case unchanged
    }

    /// The target whose metric changed.
    public var target: String
    /// The mode of the runs compared.
    public var mode: LaunchMode
    /// `Metric.key`.
    public var metric: String
    /// The statistic compared.
    public var statistic: SummaryStatistic
    /// The statistic in the baseline and now, in the metric's base unit, as measured.
    public var baseline: Double
    /// The statistic in the current runs, in the metric's unit.
    public var current: Double
    /// current / baseline - 1: +0.12 is 12% slower (or larger). With a
    /// `reference`, the change of the ratio to the reference instead: the
    /// statistic of each run's value over the reference's time in the same
    /// round, now over the same in the baseline, - 1.
    public var change: Double
    /// Bootstrap confidence interval of `change`.
    public var changeLow: Double
    /// The upper end of the change's confidence interval, as a fraction.
    public var changeHigh: Double
    /// The confidence level of the interval (0.95).
    public var confidence: Double
    /// Two-sided Mann–Whitney U p-value of the runs (with a `reference`, of
    /// those per-run ratios).
    public var pValue: Double
    /// The threshold and significance level it was judged by.
    public var threshold: Double
    /// The significance level the p-value is judged at.
    public var significance: Double
    /// How many runs the baseline had.
    public var baselineRuns: Int
    /// How many runs the current results have.
    public var currentRuns: Int
    /// Regressed, improved or unchanged.
    public var verdict: Verdict
    /// The target this metric was compared relative to: measured in the
    /// same runs as both sides, it takes the machine's drift between the
    /// baseline and now out of the change. nil: compared as measured.
    public var reference: String?
    /// With a `reference`: current / baseline - 1, as measured.
    public var measuredChange: Double?

    /// A change, as `BaselineComparer` makes them.
    public init(
        target: String, mode: LaunchMode, metric: String, statistic: SummaryStatistic, baseline: Double, current: Double,
        change: Double, changeLow: Double, changeHigh: Double, confidence: Double, pValue: Double, threshold: Double,
        significance: Double, baselineRuns: Int, currentRuns: Int, verdict: Verdict, reference: String? = nil,
        measuredChange: Double? = nil
    ) {
        self.target = target
        self.mode = mode
        self.metric = metric
        self.statistic = statistic
        self.baseline = baseline
        self.current = current
        self.change = change
        self.changeLow = changeLow
        self.changeHigh = changeHigh
        self.confidence = confidence
        self.pValue = pValue
        self.threshold = threshold
        self.significance = significance
        self.baselineRuns = baselineRuns
        self.currentRuns = currentRuns
        self.verdict = verdict
        self.reference = reference
        self.measuredChange = measuredChange
    }

    /// "sample-app (warm) wall_to_ready p50".
    public var title: String { "\(target) (\(mode.rawValue)) \(metric) \(statistic)" }

    /// The metric's unit, for formatting `baseline` and `current`.
    public var unit: Metric.Unit { Metric(key: metric)?.unit ?? .count }

    /// "+12.3% [+9.1%, +15.0%]".
    public var changeText: String {
        "\(Self.percent(change)) [\(Self.percent(changeLow)), \(Self.percent(changeHigh))]"
    }

    /// "p = 0.0004", "p < 0.0001".
    public var pValueText: String {
        pValue < 0.0001 ? "p < 0.0001" : "p = \(HumanUnits.fixed(pValue, decimals: 4))"
    }

    /// "14.2 ms → 16.0 ms (+12.3% [+9.1%, +15.0%], p = 0.0004)"; relative
    /// to a reference: "14.2 ms → 11.0 ms (-22.5% measured; relative to
    /// hello-c +1.3% [-2.0%, +4.4%], p = 0.4100)".
    public var summary: String {
        "\(HumanUnits.format(baseline, unit: unit)) → \(HumanUnits.format(current, unit: unit)) "
            + "(\(relativeText)\(changeText), \(pValueText))"
    }

    /// "-22.5% measured; relative to hello-c ", or "" without a reference.
    public var relativeText: String {
        guard let reference else { return "" }
        return (measuredChange.map { "\(Self.percent($0)) measured; " } ?? "") + "relative to \(reference) "
    }

    /// "+12.3%", "-4.0%", "+0.0%".
    public static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return fraction > 0 ? "+∞%" : "-∞%" }
        let text = HumanUnits.fixed(abs(fraction) * 100, decimals: 1)
        return (fraction < 0 && text != "0.0" ? "-" : "+") + text + "%"
    }
}
