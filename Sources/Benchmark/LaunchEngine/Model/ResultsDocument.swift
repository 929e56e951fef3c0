import LaunchProfFormat

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
    /// commit, branch and runner, and `--label`s (`MetricLabels`). What a
    /// fleet report orders and groups results by; nil when there was none.
    public var labels: [String: String]?
    /// The calibration target's name when launchprof measured its own
    /// calibration workload beside the targets (`Calibration`): times are
    /// compared relative to it when no reference is named; nil: none.
    public var calibration: String?

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
