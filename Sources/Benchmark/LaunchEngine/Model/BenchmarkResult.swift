import LaunchProfFormat

/// All runs of one target in one mode, with their summaries.
public struct BenchmarkResult: Sendable, Equatable, Codable {
    /// The target launched.
    public var target: LaunchTarget
    /// The page-cache mode of these runs.
    public var mode: LaunchMode
    /// Measured runs, in the order they ran (warm-ups excluded).
    public var runs: [RunMeasurement]
    /// Per metric key (`Metric.key`), over the successful runs that measured it.
    public var summaries: [String: MetricSummary]
    /// Things a person should know: outliers, a slow first run, residency that
    /// stayed high, failed runs.
    public var warnings: [ResultWarning]
    /// With `--counts`: which counters were measured, by what, and which
    /// were not and why; nil when nothing was counted.
    public var counters: CounterReport?
    /// The shared libraries (and ELF interpreter) the program's launch
    /// loads, as its dependencies resolved when it was measured; nil when
    /// they could not be resolved (a static program has none: empty).
    public var libraries: [String]? = nil
    /// With `--loader`: the dynamic loader's time on each library of the
    /// launch in this mode (liblaunchprof-audit.so); nil when not measured.
    public var loader: LoaderProfile? = nil

    /// The result of `runs` of `target` in `mode`; without `summaries`, each metric is summarised from the runs.
    public init(
        target: LaunchTarget, mode: LaunchMode, runs: [RunMeasurement] = [],
        summaries: [String: MetricSummary] = [:], warnings: [ResultWarning] = []
    ) {
        self.target = target
        self.mode = mode
        self.runs = runs
        self.summaries = summaries
        self.warnings = warnings
    }

    /// "name (mode)", as reports label it.
    public var label: String { "\(target.name) (\(mode.rawValue))" }
}

/// launchprof's own version, recorded in results and baselines.
public let launchprofVersion = "0.1.0"

extension BenchmarkResult {
    /// The metric reports lead with: time to ready, or time to exit when no
    /// run reported ready.
    public var headlineMetric: Metric {
        summaries[Metric.wallToReady.key] != nil || summaries[Metric.wallToExit.key] == nil ? .wallToReady : .wallToExit
    }

    /// The successful runs, in the order they ran.
    public var successfulRuns: [RunMeasurement] { runs.filter(\.exit.isSuccess) }
}
