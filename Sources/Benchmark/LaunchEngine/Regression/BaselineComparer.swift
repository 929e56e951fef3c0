import LaunchProfFormat

/// Decides, metric by metric, whether a run regressed against a baseline.
///
/// A metric has regressed only when both hold: its statistic is worse by
/// more than the threshold, and a two-sided Mann–Whitney U test of the raw
/// runs rejects "no difference" at the significance level. Size alone flags
/// noise on a busy machine; significance alone flags differences too small
/// to matter. Improvements are decided the same way. Every metric here is
/// better when lower (times, bytes, faults).
///
/// A baseline and a later run are measured at different times, and a shared
/// machine's speed drifts between them (the same binary has measured 21% and
/// 29% apart, p < 0.0001, in two runs seconds apart). When the current run has a
/// reference target (`--reference`, or the config's `reference`) measured on
/// both sides, times are compared relative to it: each run's time is divided
/// by the reference's time in the same round, so the drift the reference saw
/// is taken out; the reference's own changes are reported as `drift` and
/// never gate. Counts and bytes are compared as measured.
package struct BaselineComparer: Sendable {
    /// Default relative threshold (0.05 = 5%).
    package var threshold: Double
    /// Significance level of the U test (0.01).
    package var significance: Double
    /// The confidence level of each change's interval (0.95).
    package var confidence: Double
    /// Checks for every target and mode; budgets add theirs (see `checks(for:)`).
    package var defaultChecks: [RegressionCheck]
    /// Budgets: each one's metric and statistic is checked too, with its threshold.
    package var budgets: [Budget]
    /// Compare times relative to the current run's reference target, when
    /// both sides measured it; false: always as measured.
    package var relativeToReference: Bool
    /// The threshold of instruction counts (`--counts`), which every counted
    /// result is checked on besides its times. Counts barely move with the
    /// machine (docs/counts.md measures their spread), so a far smaller
    /// change than a time's is a real one: 0.5%.
    package var countThreshold = 0.005

    /// A comparer with these settings; the defaults are launchprof's (5%, 0.01, relative to the reference).
    package init(
        threshold: Double = 0.05, significance: Double = 0.01, confidence: Double = 0.95,
        defaultChecks: [RegressionCheck] = [RegressionCheck(metric: .wallToReady)], budgets: [Budget] = [],
        relativeToReference: Bool = true
    ) {
        self.threshold = threshold
        self.significance = significance
        self.confidence = confidence
        self.defaultChecks = defaultChecks
        self.budgets = budgets
        self.relativeToReference = relativeToReference
    }

    /// A reference target's runs on both sides, in one mode.
    package struct ReferencePair: Sendable {
        /// The reference target's name.
        package var name: String
        /// The reference's runs in the baseline.
        package var baseline: BenchmarkResult
        /// The reference's runs now.
        package var current: BenchmarkResult
        /// Runs on each side of a round whose median is the divisor: 0
        /// divides by the reference's time in the same round (a named
        /// reference); launchprof's calibration (a short workload whose
        /// single runs spike on a busy machine) uses the median of the
        /// rounds around it, which follows the drift and not the spikes.
        package var window: Int

        /// A pair of the reference `name`'s results.
        package init(name: String, baseline: BenchmarkResult, current: BenchmarkResult, window: Int = 0) {
            self.name = name
            self.baseline = baseline
            self.current = current
            self.window = window
        }
    }

    /// Compares every target and mode present in both documents, each with
    /// `checks` (default: `checks(for:)`, the default checks and the budgets').
    package func compare(
        baseline: ResultsDocument, current: ResultsDocument, baselineName: String,
        checks: ((BenchmarkResult) -> [RegressionCheck])? = nil
    ) -> BaselineComparison {
        var warnings = Self.provenanceWarnings(baseline: baseline, current: current)
        var changes: [MetricChange] = []
        var drift: [MetricChange] = []
        var attributions: [LaunchAttribution] = []
        // A named reference wins; else launchprof's own calibration, when
        // both sides measured it.
        let calibration = current.calibration.flatMap { baseline.calibration == $0 ? $0 : nil }
        let referenceName = relativeToReference ? current.reference ?? calibration : nil
        if relativeToReference, current.reference == nil, current.calibration != nil, calibration == nil {
            warnings.append(
                ResultWarning(
                    .notCompared,
                    "the baseline has no calibration runs (saved by an older launchprof, or with --no-calibrate), so times "
                        + "are compared as measured and include the machine's drift; save the baseline again"))
        }
        let references = referenceName.map { Self.referencePairs($0, baseline: baseline, current: current, warnings: &warnings) } ?? [:]
        for result in current.results {
            guard let old = baseline.results.first(where: { $0.target.name == result.target.name && $0.mode == result.mode })
            else {
                warnings.append(ResultWarning(.notCompared, "\(result.label) is not in the baseline; nothing to compare it with"))
                continue
            }
            if old.target.arguments != result.target.arguments {
                warnings.append(
                    ResultWarning(
                        .baselineDiffers,
                        "\(result.label) ran another command in the baseline: \(old.target.arguments.map(\.string).joined(separator: " "))")
                )
            }
            if old.target.environment != result.target.environment {
                let keys = Set(old.target.environment.keys).union(result.target.environment.keys)
                    .filter { old.target.environment[$0] != result.target.environment[$0] }.sorted()
                warnings.append(
                    ResultWarning(
                        .baselineDiffers,
                        "\(result.label) ran with another environment in the baseline (\(keys.joined(separator: ", ")) differ)"))
            }
            let isReference = result.target.name == referenceName
            if let attribution = LaunchAttribution.attribute(baseline: old, current: result, significance: significance) {
                attributions.append(attribution)
            }
            for check in checks?(result) ?? self.checks(for: result) {
                if BudgetEvaluator.isUpperBound(check.metric, in: old) || BudgetEvaluator.isUpperBound(check.metric, in: result) {
                    warnings.append(
                        ResultWarning(
                            .notCompared,
                            "\(result.label) max_rss: not compared; it is launchprof's own peak (an upper bound), "
                                + "not the program's, in the \(BudgetEvaluator.isUpperBound(check.metric, in: old) ? "baseline" : "current") runs"
                        ))
                    continue
                }
                let reference = isReference ? nil : references[result.mode]
                if let change = compare(check, old, result, relativeTo: reference) {
                    if isReference { drift.append(change) } else { changes.append(change) }
                } else {
                    warnings.append(
                        ResultWarning(
                            .notCompared,
                            "\(result.label) \(check.metric.key): measured \(Self.sides(check.metric, old, result)); not compared"))
                }
            }
        }
        for old in baseline.results where !current.results.contains(where: { $0.target.name == old.target.name && $0.mode == old.mode }) {
            warnings.append(ResultWarning(.notCompared, "\(old.label) is in the baseline but was not measured now"))
        }
        return BaselineComparison(
            baseline: baselineName, baselineDate: baseline.date, baselineToolVersion: baseline.toolVersion,
            warnings: warnings, changes: changes, reference: references.isEmpty ? nil : referenceName,
            drift: references.isEmpty ? nil : drift, attributions: attributions.isEmpty ? nil : attributions,
            baselineFingerprint: baseline.fingerprint)
    }

    /// The reference's results on both sides, by mode; a warning for each
    /// mode where it is missing or never launched successfully on a side.
    private static func referencePairs(
        _ name: String, baseline: ResultsDocument, current: ResultsDocument, warnings: inout [ResultWarning]
    ) -> [LaunchMode: ReferencePair] {
        var pairs: [LaunchMode: ReferencePair] = [:]
        for result in current.results where result.target.name == name {
            let label = result.label
            guard let old = baseline.results.first(where: { $0.target.name == name && $0.mode == result.mode }) else {
                warnings.append(
                    ResultWarning(
                        .notCompared,
                        "the reference \(label) is not in the baseline, so times are compared as measured "
                            + "and include the machine's drift; save the baseline with the reference target"))
                continue
            }
            let baselineLaunched = !values(.wallToReady, old).isEmpty
            guard baselineLaunched, !values(.wallToReady, result).isEmpty else {
                warnings.append(
                    ResultWarning(
                        .notCompared,
                        "the reference \(label) has no successful run on \(baselineLaunched ? "this" : "the baseline's") "
                            + "side, so times are compared as measured"))
                continue
            }
            pairs[result.mode] = ReferencePair(
                name: name, baseline: old, current: result, window: name == current.calibration && name != current.reference ? 2 : 0)
        }
        return pairs
    }

    /// The default checks plus each budget's for this target and mode; one per
    /// metric and statistic, a budget's threshold winning over the default.
    package func checks(for result: BenchmarkResult) -> [RegressionCheck] {
        var checks: [RegressionCheck] = []
        let fromBudgets = budgets.filter { $0.target == result.target.name && ($0.mode ?? result.mode) == result.mode }
            .map { RegressionCheck(metric: $0.metric, statistic: $0.statistic, threshold: $0.threshold) }
        // With the exit probe, time to ready is time to exit: one metric, checked once.
        let same = { (a: Metric, b: Metric) in
            a == b || (result.target.ready == .exit && Set([a, b]) == [.wallToReady, .wallToExit])
        }
        // Counted runs are gated on their instructions too, at the counts' own threshold.
        let counted =
            result.runs.contains { $0.counts?.instructions != nil }
            ? [RegressionCheck(metric: .instructions, threshold: countThreshold)] : []
        for check in defaultChecks + counted + fromBudgets {
            if let index = checks.firstIndex(where: { same($0.metric, check.metric) && $0.statistic == check.statistic }) {
                if check.threshold != nil { checks[index].threshold = check.threshold }
            } else {
                checks.append(check)
            }
        }
        return checks
    }

    /// One metric's change; nil when either side lacks successful runs that
    /// measured it. Relative to `reference` when given and the metric is a
    /// time: each run's value divided by the reference's time to ready in the
    /// same round (see `relativeValues`), on both sides, and those ratios
    /// compared.
    package func compare(
        _ check: RegressionCheck, _ old: BenchmarkResult, _ new: BenchmarkResult, relativeTo reference: ReferencePair? = nil
    ) -> MetricChange? {
        let before = Self.values(check.metric, old), after = Self.values(check.metric, new)
        guard let baselineValue = check.statistic.value(of: before), let currentValue = check.statistic.value(of: after) else {
            return nil
        }
        var compared = (before: before, after: after)
        var relativeTo: String?
        if let reference, check.metric.unit == .nanoseconds {
            let relative = (
                before: Self.relativeValues(check.metric, old, to: reference.baseline, window: reference.window),
                after: Self.relativeValues(check.metric, new, to: reference.current, window: reference.window)
            )
            if !relative.before.isEmpty && !relative.after.isEmpty {
                compared = relative
                relativeTo = reference.name
            }
        }
        guard let test = MannWhitneyU(compared.after, compared.before),
            let ratio = BootstrapRatio(compared.after, over: compared.before, statistic: check.statistic, confidence: confidence)
        else { return nil }
        let threshold = check.threshold ?? self.threshold
        let change = ratio.ratio - 1
        let significant = test.pValue < significance
        var verdict: MetricChange.Verdict =
            significant && change > threshold ? .regressed : significant && change < -threshold ? .improved : .unchanged
        if verdict != .unchanged, relativeTo != nil, let reference, reference.window > 0 {
            // launchprof's calibration is not the program: its drift need not
            // be the program's. A change is a verdict only when it holds both
            // relative to the calibration and as measured; where the two
            // disagree, the calibration's own drift explains it (docs/calibration.md).
            let measured = MannWhitneyU(before, after).map { $0.pValue < significance } ?? false
            let measuredChange = baselineValue > 0 ? currentValue / baselineValue - 1 : 0
            let agrees = verdict == .regressed ? measuredChange > threshold : measuredChange < -threshold
            if !(measured && agrees) { verdict = .unchanged }
        }
        return MetricChange(
            target: new.target.name, mode: new.mode, metric: check.metric.key, statistic: check.statistic,
            baseline: baselineValue, current: currentValue, change: change,
            changeLow: ratio.low - 1, changeHigh: ratio.high - 1, confidence: confidence, pValue: test.pValue,
            threshold: threshold, significance: significance, baselineRuns: before.count, currentRuns: after.count,
            verdict: verdict, reference: relativeTo,
            measuredChange: relativeTo == nil || baselineValue == 0 ? nil : currentValue / baselineValue - 1)
    }

    static func values(_ metric: Metric, _ result: BenchmarkResult) -> [Double] {
        result.runs.filter(\.exit.isSuccess).compactMap { metric.value(in: $0) }
    }

    /// Each successful run's value over the reference's time to ready in
    /// the run with the same index. Targets are interleaved run by run
    /// (A B A B …), so both were measured in the same round, seconds apart,
    /// and the ratio cancels the drift of the machine within a run as well as
    /// between runs. Dividing by the reference's median instead would treat
    /// that median as exact: on a machine whose launches were bimodal it
    /// flagged the same binary with p = 0.0004.
    static func relativeValues(_ metric: Metric, _ result: BenchmarkResult, to reference: BenchmarkResult, window: Int = 0) -> [Double] {
        var times: [Int: Double] = [:]
        for run in reference.runs where run.exit.isSuccess {
            if let time = Metric.wallToReady.value(in: run), time > 0 { times[run.index] = time }
        }
        var scale = times
        if window > 0 {
            for index in times.keys {
                let around = (index - window...index + window).compactMap { times[$0] }
                scale[index] = Statistics.median(around) ?? times[index]
            }
        }
        return result.runs.filter(\.exit.isSuccess).compactMap { run in
            guard let value = metric.value(in: run), let divisor = scale[run.index] else { return nil }
            return value / divisor
        }
    }

    private static func sides(_ metric: Metric, _ old: BenchmarkResult, _ new: BenchmarkResult) -> String {
        "\(values(metric, old).count) baseline and \(values(metric, new).count) current runs"
    }

    /// Warnings when the baseline was measured elsewhere or by another version.
    static func provenanceWarnings(baseline: ResultsDocument, current: ResultsDocument) -> [ResultWarning] {
        var warnings: [ResultWarning] = []
        let a = baseline.machine, b = current.machine
        var differences: [String] = []
        if a.hostname != b.hostname { differences.append("host \(a.hostname) vs \(b.hostname)") }
        if a.cpuModel != b.cpuModel { differences.append("CPU \(a.cpuModel) vs \(b.cpuModel)") }
        if a.cpuCount != b.cpuCount { differences.append("\(a.cpuCount) vs \(b.cpuCount) CPUs") }
        if a.kernel != b.kernel { differences.append("kernel \(a.kernel) vs \(b.kernel)") }
        if !differences.isEmpty {
            warnings.append(
                ResultWarning(
                    .baselineDiffers,
                    "the baseline was measured on another machine (\(differences.joined(separator: ", "))); "
                        + "differences may come from the machine, not the change"))
        }
        if baseline.toolVersion != current.toolVersion {
            warnings.append(
                ResultWarning(
                    .baselineDiffers, "the baseline was measured by launchprof \(baseline.toolVersion), this is \(current.toolVersion)"))
        }
        return warnings
    }
}

extension ResultsDocument {
    /// FNV-1a 64 of the document's JSON, in hex: the same document read back
    /// from its file has the same fingerprint, any other document another.
    package var fingerprint: String {
        let bytes = (try? jsonData()).map { [UInt8]($0) } ?? []
        let hash = bytes.withUnsafeBufferPointer { lp_trace_checksum($0.baseAddress, $0.count) }
        return String(hash, radix: 16)
    }

    /// The comparison of these results with `baseline`, for a report: the
    /// one they hold when it was made against that very document (decided
    /// with the run's own checks and thresholds), else the per-run times
    /// (``Metric/perRunTimes(of:)``) compared afresh by their medians,
    /// relative to the results' reference as `run --baseline` would.
    package func comparison(against baseline: ResultsDocument, named name: String) -> BaselineComparison {
        if let existing = comparison, existing.baselineFingerprint == baseline.fingerprint { return existing }
        return BaselineComparer().compare(baseline: baseline, current: self, baselineName: name) { result in
            Metric.perRunTimes(of: [result]).map { RegressionCheck(metric: $0) }
        }
    }
}

extension Metric {
    /// The metrics measured per run as times that reports draw and compare:
    /// each result's headline (time to ready, or to exit) and its measured
    /// process entry, main, milestones and lifecycle phases, in order.
    package static func perRunTimes(of results: [BenchmarkResult]) -> [Metric] {
        var metrics: [Metric] = []
        for result in results {
            let headline = result.headlineMetric
            let measured = Summarizer.metrics(measuredBy: result.successfulRuns).filter { metric in
                switch metric.group {
                case .launch: metric == headline || metric == .processEntry || metric == .main
                case .named: if case .milestone = metric { true } else { false }
                case .phase: true
                case .resource, .counter: false
                }
            }
            for metric in [headline] + measured where !metrics.contains(metric) { metrics.append(metric) }
        }
        return metrics
    }
}
