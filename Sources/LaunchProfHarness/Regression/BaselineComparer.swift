/// Decides, metric by metric, whether a run regressed against a baseline.
///
/// A metric has regressed only when both hold: its statistic is worse by
/// more than the threshold, and a two-sided Mann–Whitney U test of the raw
/// runs rejects "no difference" at the significance level. Size alone flags
/// noise on a busy machine; significance alone flags differences too small
/// to matter. Improvements are decided the same way. Every metric here is
/// better when lower (times, bytes, faults).
public struct BaselineComparer: Sendable {
    /// Default relative threshold (0.05 = 5%).
    public var threshold: Double
    /// Significance level of the U test (0.01).
    public var significance: Double
    public var confidence: Double
    /// Checks for every target and mode; budgets add theirs (see `checks(for:)`).
    public var defaultChecks: [RegressionCheck]
    /// Budgets: each one's metric and statistic is checked too, with its threshold.
    public var budgets: [Budget]

    public init(
        threshold: Double = 0.05, significance: Double = 0.01, confidence: Double = 0.95,
        defaultChecks: [RegressionCheck] = [RegressionCheck(metric: .wallToReady)], budgets: [Budget] = []
    ) {
        self.threshold = threshold
        self.significance = significance
        self.confidence = confidence
        self.defaultChecks = defaultChecks
        self.budgets = budgets
    }

    /// Compares every target and mode present in both documents.
    public func compare(baseline: ResultsDocument, current: ResultsDocument, baselineName: String) -> BaselineComparison {
        var warnings = Self.provenanceWarnings(baseline: baseline, current: current)
        var changes: [MetricChange] = []
        for result in current.results {
            guard let old = baseline.results.first(where: { $0.target.name == result.target.name && $0.mode == result.mode })
            else {
                warnings.append("\(result.label) is not in the baseline; nothing to compare it with")
                continue
            }
            if old.target.arguments != result.target.arguments {
                warnings.append("\(result.label) ran another command in the baseline: \(old.target.arguments.joined(separator: " "))")
            }
            for check in checks(for: result) {
                if BudgetEvaluator.isUpperBound(check.metric, in: old) || BudgetEvaluator.isUpperBound(check.metric, in: result) {
                    warnings.append("\(result.label) max_rss: not compared; it is launchprof's own peak (an upper bound), "
                        + "not the program's, in the \(BudgetEvaluator.isUpperBound(check.metric, in: old) ? "baseline" : "current") runs")
                    continue
                }
                if let change = compare(check, old, result) {
                    changes.append(change)
                } else {
                    warnings.append("\(result.label) \(check.metric.key): measured \(Self.sides(check.metric, old, result)); not compared")
                }
            }
        }
        for old in baseline.results where !current.results.contains(where: { $0.target.name == old.target.name && $0.mode == old.mode }) {
            warnings.append("\(old.label) is in the baseline but was not measured now")
        }
        return BaselineComparison(
            baseline: baselineName, baselineDate: baseline.date, baselineToolVersion: baseline.toolVersion,
            warnings: warnings, changes: changes)
    }

    /// The default checks plus each budget's for this target and mode; one per
    /// metric and statistic, a budget's threshold winning over the default.
    public func checks(for result: BenchmarkResult) -> [RegressionCheck] {
        var checks: [RegressionCheck] = []
        let fromBudgets = budgets.filter { $0.target == result.target.name && ($0.mode ?? result.mode) == result.mode }
            .map { RegressionCheck(metric: $0.metric, statistic: $0.statistic, threshold: $0.threshold) }
        // With the exit probe, time to ready is time to exit: one metric, checked once.
        let same = { (a: Metric, b: Metric) in
            a == b || (result.target.ready == .exit && Set([a, b]) == [.wallToReady, .wallToExit])
        }
        for check in defaultChecks + fromBudgets {
            if let index = checks.firstIndex(where: { same($0.metric, check.metric) && $0.statistic == check.statistic }) {
                if check.threshold != nil { checks[index].threshold = check.threshold }
            } else {
                checks.append(check)
            }
        }
        return checks
    }

    /// One metric's change; nil when either side lacks successful runs that measured it.
    public func compare(_ check: RegressionCheck, _ old: BenchmarkResult, _ new: BenchmarkResult) -> MetricChange? {
        let before = Self.values(check.metric, old), after = Self.values(check.metric, new)
        guard let test = MannWhitneyU(after, before),
            let ratio = BootstrapRatio(after, over: before, statistic: check.statistic, confidence: confidence)
        else { return nil }
        let threshold = check.threshold ?? self.threshold
        let change = ratio.ratio - 1
        let significant = test.pValue < significance
        let verdict: MetricChange.Verdict =
            significant && change > threshold ? .regressed : significant && change < -threshold ? .improved : .unchanged
        return MetricChange(
            target: new.target.name, mode: new.mode, metric: check.metric.key, statistic: check.statistic,
            baseline: check.statistic.value(of: before)!, current: check.statistic.value(of: after)!, change: change,
            changeLow: ratio.low - 1, changeHigh: ratio.high - 1, confidence: confidence, pValue: test.pValue,
            threshold: threshold, significance: significance, baselineRuns: before.count, currentRuns: after.count,
            verdict: verdict)
    }

    static func values(_ metric: Metric, _ result: BenchmarkResult) -> [Double] {
        result.runs.filter(\.exit.isSuccess).compactMap { metric.value(in: $0) }
    }

    private static func sides(_ metric: Metric, _ old: BenchmarkResult, _ new: BenchmarkResult) -> String {
        "\(values(metric, old).count) baseline and \(values(metric, new).count) current runs"
    }

    /// Warnings when the baseline was measured elsewhere or by another version.
    static func provenanceWarnings(baseline: ResultsDocument, current: ResultsDocument) -> [String] {
        var warnings: [String] = []
        let a = baseline.machine, b = current.machine
        var differences: [String] = []
        if a.hostname != b.hostname { differences.append("host \(a.hostname) vs \(b.hostname)") }
        if a.cpuModel != b.cpuModel { differences.append("CPU \(a.cpuModel) vs \(b.cpuModel)") }
        if a.cpuCount != b.cpuCount { differences.append("\(a.cpuCount) vs \(b.cpuCount) CPUs") }
        if a.kernel != b.kernel { differences.append("kernel \(a.kernel) vs \(b.kernel)") }
        if !differences.isEmpty {
            warnings.append("the baseline was measured on another machine (\(differences.joined(separator: ", "))); "
                + "differences may come from the machine, not the change")
        }
        if baseline.toolVersion != current.toolVersion {
            warnings.append("the baseline was measured by launchprof \(baseline.toolVersion), this is \(current.toolVersion)")
        }
        return warnings
    }
}
