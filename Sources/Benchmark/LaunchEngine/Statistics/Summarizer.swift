/// Turns the runs of a `BenchmarkResult` into its summaries and warnings.
///
/// Summaries cover the successful runs only (a crash's timing says nothing
/// about launch), one per metric that at least one of them measured.
package struct Summarizer: Sendable {
    /// Outlier rule applied to time to ready.
    package var outliers = OutlierDetection()
    /// The first run is "much slower" above this multiple of the rest's median.
    package var slowFirstRunFactor = 1.5
    /// Fewer successful runs than this gives a "statistics are weak" warning.
    package var minimumRuns = 5
    /// A cold run whose file set was more resident than this (0...1) was not cold.
    package var residencyThreshold = 0.10
    /// The confidence level of the median's interval.
    package var confidence = 0.95

    /// A summarizer with 95% confidence.
    package init() {}

    /// `result` with its summaries and warnings computed from its runs.
    package func summarize(_ result: BenchmarkResult) -> BenchmarkResult {
        var summarized = result
        summarized.summaries = summaries(of: result.runs)
        summarized.warnings = warnings(for: result).map(\.kept)
        return summarized
    }

    /// One summary per metric measured by a successful run, keyed by `Metric.key`.
    ///
    /// One pass over each run's milestones and intervals: a program may
    /// name thousands of them (up to the record limit), so nothing here
    /// looks a name up in a run's list.
    package func summaries(of runs: [RunMeasurement]) -> [String: MetricSummary] {
        let successful = runs.filter(\.exit.isSuccess)
        var values: [String: [Double]] = [:]
        let metrics = Self.metrics(measuredBy: successful)
        for metric in metrics {
            switch metric {
            case .milestone, .interval: continue
            default: values[metric.key] = successful.compactMap { metric.value(in: $0) }
            }
        }
        let intervalKeys = metrics.compactMap { metric -> String? in
            if case .interval(let key) = metric { return key }
            return nil
        }
        for run in successful {
            // The first time of each name, as Metric.value(in:) reads it.
            var seen = Set<String>()
            for milestone in run.milestones where seen.insert(milestone.name).inserted {
                values[Metric.milestone(milestone.name).key, default: []].append(Double(milestone.nanoseconds))
            }
            // A traced run without an interval spent no time in it.
            guard let intervals = run.intervals else { continue }
            var times: [String: UInt64] = [:]
            for interval in intervals where times[interval.key] == nil { times[interval.key] = interval.nanoseconds }
            for key in intervalKeys { values[Metric.interval(key).key, default: []].append(Double(times[key] ?? 0)) }
        }
        var summaries: [String: MetricSummary] = [:]
        for metric in metrics {
            summaries[metric.key] = MetricSummary(values: values[metric.key] ?? [], confidence: confidence)
        }
        return summaries
    }

    /// The metrics the runs measured, in report order: wall times, pre-main
    /// and main, milestones in the order first seen, then resources.
    package static func metrics(measuredBy runs: [RunMeasurement]) -> [Metric] {
        guard !runs.isEmpty else { return [] }
        var milestoneNames: [String] = []
        var seenMilestones = Set<String>()
        var intervalKeys: [String] = []
        var seenIntervals = Set<String>()
        for run in runs {
            for milestone in run.milestones where seenMilestones.insert(milestone.name).inserted {
                milestoneNames.append(milestone.name)
            }
            for interval in run.intervals ?? [] where seenIntervals.insert(interval.key).inserted { intervalKeys.append(interval.key) }
        }
        let measured = Metric.unnamed.filter { metric in metric.group == .resource || runs.contains { metric.value(in: $0) != nil } }
        let timed = measured.filter { $0.group == .launch }
        let lifecycle = measured.filter { $0.group == .phase }
        let resources = measured.filter { $0.group == .resource }
        let counters = measured.filter { $0.group == .counter }
        return timed + milestoneNames.map(Metric.milestone) + intervalKeys.map(Metric.interval) + lifecycle + resources + counters
    }

    /// Everything wrong or doubtful about `result`, most serious first.
    package func warnings(for result: BenchmarkResult) -> [LaunchWarning] {
        let successful = result.runs.filter(\.exit.isSuccess)
        var warnings: [LaunchWarning] = []
        if let failed = failedRunsWarning(result.runs) { warnings.append(failed) }
        if successful.count < minimumRuns {
            warnings.append(.fewRuns(successful: successful.count, minimum: minimumRuns))
        }
        if result.mode == .cold, let residency = residencyWarning(result.runs) { warnings.append(residency) }
        warnings += timingWarnings(successful, mode: result.mode)
        return warnings
    }

    // MARK: - Individual checks

    private func failedRunsWarning(_ runs: [RunMeasurement]) -> LaunchWarning? {
        let failed = runs.filter { !$0.exit.isSuccess }
        guard !failed.isEmpty else { return nil }
        var groups: [(status: String, runs: [Int])] = []
        for run in failed {
            let status = run.exit.description
            if let position = groups.firstIndex(where: { $0.status == status }) {
                groups[position].runs.append(run.index + 1)
            } else {
                groups.append((status, [run.index + 1]))
            }
        }
        return .failedRuns(groups: groups, total: runs.count)
    }

    /// The slow-first-run and outlier checks on time to ready. When the first
    /// run is the slow one, it is reported as such and not again as an outlier.
    private func timingWarnings(_ runs: [RunMeasurement], mode: LaunchMode) -> [LaunchWarning] {
        let metric: Metric = .wallToReady
        let measured = runs.compactMap { run in metric.value(in: run).map { (run: run, value: $0) } }
        var warnings: [LaunchWarning] = []
        var firstIsSlow = false
        if measured.count >= 3, measured[0].run.index == 0, let rest = Statistics.median(measured.dropFirst().map(\.value)),
            measured[0].value > slowFirstRunFactor * rest
        {
            firstIsSlow = true
            warnings.append(.slowFirstRun(first: measured[0].value, restMedian: rest, mode: mode))
        }
        let values = measured.map(\.value)
        let positions = outliers.outlierPositions(in: values).filter { !(firstIsSlow && $0 == 0) }
        if !positions.isEmpty, let median = Statistics.median(values), let mad = Statistics.medianAbsoluteDeviation(values) {
            let list = positions.map { (number: measured[$0].run.index + 1, value: values[$0]) }
            warnings.append(
                .outliers(metric: metric, runs: list, median: median, limit: outliers.madMultiple * mad, total: values.count))
        }
        return warnings
    }

    private func residencyWarning(_ runs: [RunMeasurement]) -> LaunchWarning? {
        let warm = runs.filter { ($0.residency?.unexpectedResidentFraction ?? 0) > residencyThreshold }
        guard !warm.isEmpty else { return nil }
        // Per file, the worst residency seen and the first note explaining it.
        var files: [LaunchWarning.ResidentFile] = []
        for run in warm {
            for file in run.residency?.files ?? [] where file.totalPages > 0 && file.expected != true {
                let fraction = Double(file.residentPages) / Double(file.totalPages)
                guard fraction > residencyThreshold else { continue }
                if let position = files.firstIndex(where: { $0.path == file.path }) {
                    files[position].fraction = max(files[position].fraction, fraction)
                    files[position].residentPages = max(files[position].residentPages, file.residentPages)
                    files[position].note = files[position].note ?? file.note
                } else {
                    files.append(.init(path: file.path, fraction: fraction, residentPages: file.residentPages, note: file.note))
                }
            }
        }
        // The files that kept the most cached first (a large library wholly
        // resident weighs on a cold launch more than a small one), then by
        // path: many files are often 100% resident, and the warning names
        // only the first few, the same ones every time.
        files.sort { $0.residentPages != $1.residentPages ? $0.residentPages > $1.residentPages : $0.path < $1.path }
        let worst = warm.map { $0.residency?.unexpectedResidentFraction ?? 0 }.max() ?? 0
        return .residencyStayedHigh(
            runs: warm.map { $0.index + 1 }, worstFraction: worst, files: files, total: runs.count,
            threshold: residencyThreshold)
    }
}
