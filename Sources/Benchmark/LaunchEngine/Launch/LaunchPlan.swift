import LaunchAnalysis

/// One target's launches as a benchmark makes them: every setting that the
/// flags, launchprof.yml and launchprof's defaults decide for it, resolved
/// once, here, so that no later step chooses again. The measured runs
/// (`ProcessExecutor`) and the profiled ones (`run --profile`) launch from
/// the same plan.
///
/// The rules decided here:
/// - **which timeout wins**: the target's own (launchprof.yml), else the
///   session's (`--timeout`), else ``RunDefaults/timeout``;
/// - **whether measured runs are traced**: as `--trace-runs` /
///   `--no-trace-runs` say, else exactly when the target is ready by the
///   tracer (its intervals are then read from each run's trace);
/// - **the X display** a target gets when it names none (`--display`).
package struct LaunchPlan: Sendable, Equatable {
    /// What to launch, with the display it gets.
    package var target: LaunchTarget
    /// A run neither ready nor exited by then is killed with its tree.
    package var timeout: Duration
    /// How long a program stopped after ready may take to exit before SIGKILL.
    package var grace: Duration
    /// Where the programs' output goes.
    package var output: OutputPlan
    /// Lifecycle phases timed after ready (`--measure`).
    package var measure: [LifecycleMeasure]
    /// Whether each measured run writes a trace whose intervals are kept.
    package var tracesRuns: Bool
    /// What counts each measured launch's events (`--counts`); warm-ups are
    /// not counted.
    package var counts: CountSource?
    /// The CPUs every run, warm-up or measured, runs on (`gate
    /// --affinity`); nil: wherever the scheduler puts it.
    package var affinity: CPUAffinity?

    /// The plan of `target`'s launches.
    ///
    /// - Parameters:
    ///   - target: what to launch.
    ///   - ownTimeout: the target's own timeout (its launchprof.yml entry), which wins.
    ///   - timeout: the session's timeout, for a target without one of its own.
    ///   - grace: how long a program stopped after ready may take to exit.
    ///   - output: where the programs' output goes.
    ///   - measure: lifecycle phases timed after ready (`--measure`).
    ///   - traceRuns: `--trace-runs` (true), `--no-trace-runs` (false), or nil.
    ///   - counts: what counts each measured launch's events (`--counts`).
    ///   - display: the X display for a target whose environment names none.
    package init(
        target: LaunchTarget, ownTimeout: Duration? = nil, timeout: Duration = RunDefaults.timeout,
        grace: Duration = RunDefaults.grace, output: OutputPlan = .discard, measure: [LifecycleMeasure] = [],
        traceRuns: Bool? = nil, counts: CountSource? = nil, display: String? = nil
    ) {
        var target = target
        if let display, target.environment["DISPLAY"] == nil { target.environment["DISPLAY"] = display }
        self.target = target
        self.timeout = ownTimeout ?? timeout
        self.grace = grace
        self.output = output
        self.measure = measure
        self.tracesRuns = traceRuns ?? (target.ready == .tracer)
        self.counts = counts
    }

    /// The launch of one run: a warm-up is neither traced nor counted.
    /// `trace` is the file a traced run writes (nil: not traced).
    package func request(for context: RunContext, trace: String?) -> RunRequest {
        var target = self.target
        if let trace {
            // Written after the harness is told ready (or at exit), so time
            // to ready does not include it.
            target.environment["LAUNCHPROF_TRACE"] = trace
            if target.ready != .exit { target.environment["LAUNCHPROF_TRACE_AT"] = "after-ready" }
        }
        // Nothing is needed from a program ready at exit before it exits:
        // launchprof is not woken while it starts (quiet; RunRequest decides
        // whether the launch allows it).
        var request = RunRequest(
            target: target, timeout: timeout, grace: grace, output: output.disposition(for: context), measure: measure,
            traceFile: trace, quiet: true)
        request.counts = context.isWarmup ? nil : counts
        request.affinity = affinity
        return request
    }

    /// Whether `context`'s run is traced: a measured run of a traced plan.
    package func traces(_ context: RunContext) -> Bool { tracesRuns && !context.isWarmup }
}
