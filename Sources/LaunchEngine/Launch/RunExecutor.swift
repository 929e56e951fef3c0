import Glibc
import LaunchAnalysis

/// Which run of the benchmark is about to happen.
public struct RunContext: Sendable, Equatable {
    /// The target launched.
    public var target: LaunchTarget
    /// Its page-cache mode.
    public var mode: LaunchMode
    /// 0-based among the warm-ups or among the measured runs.
    public var index: Int
    /// Whether the run is a warm-up (not measured).
    public var isWarmup: Bool
    /// This target's own timeout; nil: the executor's.
    public var timeout: Duration?

    /// The context of run `index` of `target` in `mode`.
    public init(target: LaunchTarget, mode: LaunchMode, index: Int, isWarmup: Bool, timeout: Duration? = nil) {
        self.target = target
        self.mode = mode
        self.index = index
        self.isWarmup = isWarmup
        self.timeout = timeout
    }

    /// "warm-up 2" or "run 5" (1-based, as people count).
    public var runDescription: String { isWarmup ? "warm-up \(index + 1)" : "run \(index + 1)" }
}

/// Performs one launch. The real one spawns a process
/// (``ProcessExecutor``); tests may script one to check scheduling
/// deterministically, as hyperfine's mock executor does.
public protocol RunExecutor {
    /// Launches `context.target` once and returns what was observed. A target
    /// that cannot be started throws ``LaunchError``.
    func execute(_ context: RunContext) throws -> ObservedRun
}

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

/// Where the output of all runs goes.
public enum OutputPlan: Sendable, Equatable {
    /// The programs' output goes to /dev/null.
    case discard
    /// The programs' output goes to launchprof's own.
    case inherit
    /// One file per run in this directory: `<name>-<mode>-run-<n>.log`.
    case directory(String)

    func disposition(for context: RunContext) -> OutputDisposition {
        switch self {
        case .discard: return .discard
        case .inherit: return .inherit
        case .directory(let directory):
            let safe = String(context.target.name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
            let run = context.isWarmup ? "warmup-\(context.index + 1)" : "run-\(context.index + 1)"
            return .file("\(directory)/\(safe.prefix(80))-\(context.mode.rawValue)-\(run).log")
        }
    }
}
