import Glibc
import LaunchAnalysis

/// The real executor: posix_spawn and the run loop.
public struct ProcessExecutor: RunExecutor {
    /// Starts the processes.
    public var spawner = Spawner()
    /// A run neither ready nor exited by then is killed and fails.
    public var timeout: Duration
    /// How long a program stopped after ready may take to exit.
    public var grace: Duration
    /// Where the programs' output goes.
    public var output: OutputPlan
    /// Stops the run in progress when it fires.
    public var interrupt: InterruptMonitor?
    /// Lifecycle phases to time after ready (`--measure`).
    public var measure: [LifecycleMeasure]
    /// Where each run's trace is written (`--trace-runs`): the run's own
    /// intervals are read from it, then it is removed; nil: runs are not traced.
    public var traceDirectory: String?
    /// Which runs are traced there: all (true), none (false), or those of
    /// targets ready by the tracer (nil).
    public var traceRuns: Bool?
    /// The X display the programs get when their target names none
    /// (`--display`), e.g. a ``VirtualDisplay``'s.
    public var display: String?
    /// What counts each measured launch's events (`--counts`); nil: nothing.
    /// Warm-ups are not counted.
    public var counts: CountSource?

    /// An executor with these settings.
    public init(
        timeout: Duration = RunDefaults.timeout, grace: Duration = RunDefaults.grace, output: OutputPlan = .discard,
        interrupt: InterruptMonitor? = nil, measure: [LifecycleMeasure] = []
    ) {
        self.timeout = timeout
        self.grace = grace
        self.output = output
        self.interrupt = interrupt
        self.measure = measure
    }

    public func execute(_ context: RunContext) throws -> ObservedRun {
        var target = context.target
        if let display, target.environment["DISPLAY"] == nil { target.environment["DISPLAY"] = display }
        let traced = !context.isWarmup && (traceRuns ?? (context.target.ready == .tracer))
        let trace = traced ? traceDirectory.map { "\($0)/run-\(UInt64.random(in: 0...UInt64.max)).lptrace" } : nil
        if let trace {
            // Written after the harness is told ready (or at exit), so time
            // to ready does not include it.
            target.environment["LAUNCHPROF_TRACE"] = trace
            if target.ready != .exit { target.environment["LAUNCHPROF_TRACE_AT"] = "after-ready" }
        }
        // Nothing is needed from a program ready at exit before it exits:
        // launchprof is not woken while it starts (quiet).
        var request = RunRequest(
            target: target, timeout: context.timeout ?? timeout, grace: grace, output: output.disposition(for: context),
            measure: measure, traceFile: trace, quiet: true)
        request.counts = context.isWarmup ? nil : counts
        var observed = try spawner.run(request, interrupt: interrupt)
        if let trace {
            defer { unlink(trace) }
            if let ready = observed.wallToReady, let read = try? TraceReader.read(path: trace) {
                observed.intervals = RunIntervals.times(in: read, readyAt: observed.startNanoseconds &+ ready)
            } else if observed.failure == nil {
                observed.notes.append(
                    "--trace-runs: the run wrote no readable trace (is the program linked with LaunchProf, and does it reach launch complete?)"
                )
            }
        }
        return observed
    }
}
