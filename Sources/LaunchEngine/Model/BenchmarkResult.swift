import LaunchProfFormat

/// Summary statistics of one metric over the measured runs.
public struct MetricSummary: Sendable, Equatable, Codable {
    /// The number of runs summarised.
    public var count: Int
    /// The median (p50).
    public var median: Double
    /// The arithmetic mean.
    public var mean: Double
    /// The sample standard deviation.
    public var standardDeviation: Double
    /// The smallest value.
    public var min: Double
    /// The largest value.
    public var max: Double
    /// The 90th percentile.
    public var p90: Double
    /// The 95th percentile.
    public var p95: Double
    /// The 99th percentile.
    public var p99: Double
    /// Median absolute deviation (unscaled).
    public var mad: Double
    /// 95% confidence interval of the median (order statistics).
    public var medianLow: Double
    /// The upper end of the median's 95% confidence interval.
    public var medianHigh: Double

    /// A summary with these values, in the metric's unit.
    public init(
        count: Int, median: Double, mean: Double, standardDeviation: Double, min: Double, max: Double,
        p90: Double, p95: Double, p99: Double, mad: Double, medianLow: Double, medianHigh: Double
    ) {
        self.count = count
        self.median = median
        self.mean = mean
        self.standardDeviation = standardDeviation
        self.min = min
        self.max = max
        self.p90 = p90
        self.p95 = p95
        self.p99 = p99
        self.mad = mad
        self.medianLow = medianLow
        self.medianHigh = medianHigh
    }
}

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
    /// The shared libraries (and ELF interpreter) the program's launch
    /// loads, as its dependencies resolved when it was measured; nil when
    /// they could not be resolved (a static program has none: empty).
    public var libraries: [String]? = nil

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

/// The machine a result was measured on.
public struct MachineDescription: Sendable, Equatable, Codable {
    /// The machine's host name.
    public var hostname: String
    /// The kernel release (`uname -r`).
    public var kernel: String
    /// The CPU model name from /proc/cpuinfo.
    public var cpuModel: String
    /// The CPUs online.
    public var cpuCount: Int
    /// The machine's memory, in bytes.
    public var memoryBytes: UInt64

    /// A description with these values; ``current()`` reads this machine's.
    public init(hostname: String, kernel: String, cpuModel: String, cpuCount: Int, memoryBytes: UInt64) {
        self.hostname = hostname
        self.kernel = kernel
        self.cpuModel = cpuModel
        self.cpuCount = cpuCount
        self.memoryBytes = memoryBytes
    }
}

/// What `launchprof run --export-json` writes (and baselines store).
public struct ResultsDocument: Sendable, Equatable, Codable {
    /// Schema version of this document; readers reject unknown versions.
    public static let currentVersion = Int(LP_RESULTS_SCHEMA_VERSION)

    /// The schema version this document was written with.
    public var version: Int
    /// The launchprof version that measured the results.
    public var toolVersion: String
    /// ISO 8601, UTC.
    public var date: String
    /// The command line that produced the results.
    public var commandLine: [String]
    /// The machine the results were measured on.
    public var machine: MachineDescription
    /// Name of the reference target, if one was marked (`--reference`).
    public var reference: String?
    /// One result per target and mode, in plan order.
    public var results: [BenchmarkResult]
    /// Budgets checked in this run (a config file's), if any.
    public var budgets: [BudgetEvaluation]?
    /// The comparison with a baseline (`--baseline`), if one was asked for.
    public var comparison: BaselineComparison?
    /// The launch profiles taken after measuring (`run --profile`), if any.
    public var profiles: [ProfileRecord]?
    /// What the run's environment said about it besides the machine: CI's
    /// commit, branch and runner, and `--label`s (``MetricLabels``). What a
    /// fleet report orders and groups results by; nil when there was none.
    public var labels: [String: String]?

    /// A document with these contents; ``ResultsDocument/measuredNow(commandLine:reference:results:date:)`` fills in the date, machine and version.
    public init(
        version: Int = ResultsDocument.currentVersion, toolVersion: String, date: String, commandLine: [String],
        machine: MachineDescription, reference: String?, results: [BenchmarkResult],
        budgets: [BudgetEvaluation]? = nil, comparison: BaselineComparison? = nil, profiles: [ProfileRecord]? = nil,
        labels: [String: String]? = nil
    ) {
        self.version = version
        self.toolVersion = toolVersion
        self.date = date
        self.commandLine = commandLine
        self.machine = machine
        self.reference = reference
        self.results = results
        self.budgets = budgets
        self.comparison = comparison
        self.profiles = profiles
        self.labels = labels
    }
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
