import LaunchEngine

/// How a benchmark runs and what it is checked against: everything
/// `launchprof run`'s flags and a config file set besides the targets and
/// their schedule (which a `BenchmarkPlan` holds).
public struct BenchmarkSettings: Sendable {
    /// For a target that has no timeout of its own: a run neither ready nor
    /// exited by then is killed with its process tree, and fails.
    public var timeout: Duration = RunDefaults.timeout
    /// How long a program stopped after ready may take to exit before SIGKILL.
    public var grace: Duration = RunDefaults.grace
    /// Where the measured programs' output goes (`.directory` is created).
    package var output: OutputPlan = .discard
    /// Lifecycle phases timed after ready (`--measure`).
    package var measure: [LifecycleMeasure] = []
    /// Cold runs drop the whole page cache (root only; checked before measuring).
    public var dropCaches = false
    /// The target the others are reported relative to, and the default
    /// reference of ratio budgets; nil: none.
    public var reference: String?
    /// Checked against the results once measuring is done.
    public var budgets: [Budget] = []
    /// Compared with the results; a regression fails the gate.
    public var baseline: BaselineSource?
    /// A change beyond this is a regression when significant; nil: `RunDefaults.threshold`.
    public var threshold: Double?
    /// The Mann–Whitney U test's level; nil: `RunDefaults.significance`.
    public var significance: Double?
    /// Compare times relative to the reference target when both sides
    /// measured it, which takes the machine's drift out; false: as measured.
    public var relativeToReference = true
    /// Sample each target's launches once measuring is done (`--profile`); nil: no profiles.
    public var profiling: ProfilingSettings?
    /// Time the dynamic loader on each shared library once measuring is done
    /// (`--loader`): this many audited launches per target and mode, before
    /// the comparison (whose attribution uses them); nil: not measured.
    public var loaderLaunches: Int?
    /// The files the outcome will be written to (``BenchmarkOutcome/write(_:)``):
    /// ``BenchmarkSession/validate()`` checks, before the first launch,
    /// that each can be written there.
    public var results = ResultsFiles()
    /// Save the measured results as this baseline once measuring succeeded.
    public var saveBaseline: String?
    /// Where named baselines are read and saved.
    package var baselineStore = BaselineStore()
    /// Take SIGINT, SIGTERM, SIGHUP and SIGQUIT over while running, so that
    /// Ctrl-C stops the benchmark and keeps what was measured (the CLI does).
    /// A library caller usually keeps its own signal handling and cancels
    /// the task instead.
    public var catchesSignals = false
    /// Trace every measured run of a LaunchProf program (`--trace-runs`):
    /// each run's intervals are kept in the results, summarised like the
    /// other metrics and attributed when compared with a baseline. The trace
    /// is written after ready, so time to ready does not include it
    /// (`Scripts/compare/compare-trace-runs-overhead.sh` measures it). nil: traced
    /// for targets ready by the tracer, not for the others.
    public var traceRuns: Bool?
    /// The X display desktop programs are launched on (`--display`): a
    /// private Xvfb launchprof starts (`.virtual`), a named one, or nil for
    /// launchprof's own DISPLAY.
    public var display: DisplayChoice?
    /// Count each measured launch's events (`--counts`, docs/counts.md): the
    /// counts become metrics like any other (summaries, budgets, baselines,
    /// the gate); nil: not counted.
    public var counts: CountSource?
    /// Measure launchprof's calibration workload beside the targets
    /// (`Calibration`, docs/calibration.md) so a comparison across time
    /// is judged relative to it. nil: when a baseline is compared or saved
    /// and no reference is named; false: never (`--no-calibrate`).
    public var calibrate: Bool?
    /// Recorded in the results document.
    public var commandLine: [String] = CommandLine.arguments
    /// Recorded in the results document (`ResultsDocument.labels`): CI's
    /// commit, branch and runner, and any others; nil: the standard ones
    /// read from this process's environment.
    package var labels: MetricLabels?

    /// Settings with launchprof's defaults, and the reference, budgets and baseline given.
    public init(
        timeout: Duration = RunDefaults.timeout, reference: String? = nil, budgets: [Budget] = [],
        baseline: BaselineSource? = nil
    ) {
        self.timeout = timeout
        self.reference = reference
        self.budgets = budgets
        self.baseline = baseline
    }

    /// The comparer these settings ask for.
    package var comparer: BaselineComparer {
        BaselineComparer(
            threshold: threshold ?? RunDefaults.threshold, significance: significance ?? RunDefaults.significance,
            budgets: budgets, relativeToReference: relativeToReference)
    }
}

extension BenchmarkPlan {
    /// Commands given on the command line (no config file): every target in
    /// the overrides' modes, warm-up and stopping rule, or launchprof's defaults.
    public init(targets: [LaunchTarget], overrides: RunOverrides) {
        // Targets built from commands carry their ready probe and
        // evictions already; an activation applies to every one.
        var targets = targets
        for index in targets.indices {
            if let activation = overrides.activation {
                targets[index].activation = activation
                targets[index].ready = .response
            }
        }
        self.init(
            targets: targets, modes: overrides.modes ?? RunDefaults.modes, warmup: overrides.warmup ?? RunDefaults.warmup,
            stopping: overrides.stopping ?? StoppingRule())
    }
}

extension ResultsDocument {
    /// `launchprof compare`: these results with `settings`' budgets checked
    /// and compared with `baseline` (named `name` in reports), without running anything.
    public func compared(with baseline: ResultsDocument, named name: String, settings: BenchmarkSettings) -> ResultsDocument {
        var document = self
        if !settings.budgets.isEmpty {
            document.budgets = BudgetEvaluator(budgets: settings.budgets).evaluate(results)
        }
        document.comparison = settings.comparer.compare(baseline: baseline, current: document, baselineName: name)
        return document
    }
}

extension BenchmarkSettings {
    /// A config file's budgets, threshold and significance under these
    /// settings' own (which win), as ``BenchmarkSession/init(config:selecting:overrides:settings:)`` takes them.
    public func with(_ config: LaunchConfig?) -> BenchmarkSettings {
        guard let config else { return self }
        var settings = self
        settings.reference = reference ?? config.reference
        settings.budgets = config.budgets + budgets
        settings.threshold = threshold ?? config.threshold
        settings.significance = significance ?? config.significance
        settings.counts = counts ?? config.counts
        return settings
    }
}
