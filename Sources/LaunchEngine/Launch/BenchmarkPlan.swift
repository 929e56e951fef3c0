/// What `launchprof run` measures: targets, modes, how many runs.
public struct BenchmarkPlan: Sendable {
    /// What to launch, in the order reports list them.
    public var targets: [LaunchTarget]
    /// Every target runs in each of these modes.
    public var modes: [LaunchMode]
    /// Unrecorded runs per target and mode before measuring (hyperfine's --warmup).
    public var warmup: Int
    /// When to stop measuring each target and mode.
    public var stopping: StoppingRule
    /// Per target name, settings that replace the plan-wide ones (a config
    /// file can give each target its own modes, runs, warm-ups and timeout).
    public var schedules: [String: TargetSchedule]

    /// A plan: every target in `modes`, with `warmup` unmeasured runs and `stopping` deciding the measured runs, unless its schedule says otherwise.
    public init(
        targets: [LaunchTarget], modes: [LaunchMode] = [.warm], warmup: Int = 3, stopping: StoppingRule = StoppingRule(),
        schedules: [String: TargetSchedule] = [:]
    ) {
        self.targets = targets
        self.modes = modes
        self.warmup = warmup
        self.stopping = stopping
        self.schedules = schedules
    }

    /// The page-cache modes `target` runs in: its schedule's, else the plan's.
    public func modes(of target: LaunchTarget) -> [LaunchMode] { schedules[target.name]?.modes ?? modes }
    /// The warm-up runs of `target`: its schedule's, else the plan's.
    public func warmup(of target: LaunchTarget) -> Int { schedules[target.name]?.warmup ?? warmup }
    /// When `target` has enough measured runs: its schedule's rule, else the plan's.
    public func stopping(of target: LaunchTarget) -> StoppingRule { schedules[target.name]?.stopping ?? stopping }
    /// Every mode some target runs in.
    public var allModes: Set<LaunchMode> { Set(targets.flatMap { modes(of: $0) }) }
    /// nil: the executor's own timeout.
    public func timeout(of target: LaunchTarget) -> Duration? { schedules[target.name]?.timeout }
}

/// A run that failed: which target, mode and run, and why.
public struct RunFailure: Sendable, Equatable, CustomStringConvertible, Error {
    /// The target whose run failed.
    public var target: String
    /// The mode of the run.
    public var mode: LaunchMode
    /// "run 3" or "warm-up 1".
    public var run: String
    /// What went wrong: a crash, a timeout, a non-zero exit status.
    public var reason: String

    /// A failure of run `run` of `target` in `mode`.
    public init(target: String, mode: LaunchMode, run: String, reason: String) {
        self.target = target
        self.mode = mode
        self.run = run
        self.reason = reason
    }

    public var description: String { "target '\(target)' (\(mode.rawValue)), \(run): \(reason)" }
}

/// What a benchmark produced, complete or not.
public struct MeasuredRuns: Sendable {
    /// One per target and mode, in plan order, with summaries and warnings.
    public var results: [BenchmarkResult]
    /// SIGINT stopped the benchmark; results hold the runs measured before.
    public var interrupted: Bool
    /// The run that stopped the benchmark by failing, if one did.
    public var failure: RunFailure?

    /// What the runner measured, and what stopped it if anything did.
    public init(results: [BenchmarkResult], interrupted: Bool = false, failure: RunFailure? = nil) {
        self.results = results
        self.interrupted = interrupted
        self.failure = failure
    }
}

/// One finished run, for a progress display.
public struct BenchmarkProgress: Sendable {
    /// The run just measured: target, mode, index, warm-up or not.
    public var context: RunContext
    /// The run just measured, as observed.
    public var observed: ObservedRun
    /// Measured runs of this target and mode so far (0 during warm-ups).
    public var measuredRuns: Int
    /// The planned count when fixed (`--runs`), else nil.
    public var plannedRuns: Int?
    /// Median time to ready of this target and mode so far, ns.
    public var median: Double?
}
