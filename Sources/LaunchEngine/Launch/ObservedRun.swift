/// Settings of the run loop for one launch.
public struct RunSettings: Sendable, Equatable {
    /// When the launch counts as done.
    public var probe: ReadyProbe
    /// The run is killed (with its process group) if it is neither ready nor
    /// exited by then.
    public var timeout: Duration
    /// How long a process stopped with SIGTERM after ready may take to exit
    /// before it gets SIGKILL.
    public var grace: Duration
    /// Lifecycle phases to measure after ready (`--measure`).
    public var measure: [LifecycleMeasure]
    /// A launch on demand: the request to send through the activated
    /// socket (ready is its whole response), then once more, warm.
    public var activation: SocketActivation?
    /// `--trace-runs`: the trace the program writes after ready; the run
    /// waits for it (at most the grace period) before stopping the program.
    public var traceFile: String?
    /// `--counts perf`: tell the spawner when the run is ready, so its
    /// counters are read then.
    public var counts = false

    /// Settings for one observed run.
    public init(
        probe: ReadyProbe = .exit, timeout: Duration = RunDefaults.timeout, grace: Duration = RunDefaults.grace,
        measure: [LifecycleMeasure] = []
    ) {
        self.probe = probe
        self.timeout = timeout
        self.grace = grace
        self.measure = measure
    }
}

/// Everything the run loop saw of one launch. Times are nanoseconds since t0.
///
/// The figures a results document keeps (times to ready and exit, process
/// entry, main, milestones, the lifecycle and activation times, intervals,
/// the main thread's CPU, how it ended) are a ``RunMeasurement`` the loop
/// fills in as it sees them, read and written here by name (`run.wallToReady`);
/// beside it is what only the loop needs.
@dynamicMemberLookup
public struct ObservedRun: Sendable, Equatable {
    /// The launched process's id.
    public var pid: Int32
    /// t0: CLOCK_MONOTONIC just before posix_spawn, as the spawner read it;
    /// the run's times count from here.
    public var startNanoseconds: UInt64 = 0
    /// The figures as they are measured; resources and the index are set by
    /// ``measurement(index:residency:)``.
    public var figures: RunMeasurement
    /// The launched process's own resources (wait4 of it).
    public var usage: ResourceUsage
    /// The whole tree's: sums, the largest process, how many were reaped.
    public var tree = TreeUsage()
    /// What the run loop noticed and the report should say once (records
    /// from another process, refused notify senders, ignored variables).
    public var notes: [String] = []
    /// SIGINT arrived during the run; the process was killed and the run
    /// does not count.
    public var interrupted = false
    /// A record on the record socket this launchprof cannot read; the run was killed.
    public var protocolError: String?
    /// `--measure` could not measure what it was asked to; the run was killed.
    public var measureError: String?
    /// A readiness message that arrived but did not count (a `READY=1` from
    /// a process outside the run), said again if the run then fails.
    public var ignoredReadiness: String?
    /// With `--counts`: which counters were measured, by what, and why the
    /// others were not.
    public var counterReport: CounterReport?

    /// A run of `pid` so far: it ended with `exit`, having used `usage`.
    public init(
        pid: Int32, wallToReady: UInt64? = nil, wallToExit: UInt64? = nil, exit: ExitStatus, usage: ResourceUsage
    ) {
        self.pid = pid
        self.usage = usage
        figures = RunMeasurement(index: 0, wallToExit: wallToExit, wallToReady: wallToReady, exit: exit)
    }

    /// A figure of the run, by its name in ``RunMeasurement``.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<RunMeasurement, Value>) -> Value {
        get { figures[keyPath: keyPath] }
        set { figures[keyPath: keyPath] = newValue }
    }

    /// The run as a measurement, numbered `index` among its target's runs.
    public func measurement(index: Int, residency: ResidencyReport? = nil) -> RunMeasurement {
        // The run's figures are the whole tree's; the launched process's own
        // are kept beside them.
        let total = tree.processes > 0 ? tree.usage : usage
        var measurement = figures
        measurement.index = index
        measurement.residency = residency
        measurement.userCPU = total.userCPU
        measurement.systemCPU = total.systemCPU
        measurement.maxRSSBytes = total.maxRSSBytes
        measurement.majorFaults = total.majorFaults
        measurement.minorFaults = total.minorFaults
        measurement.voluntaryContextSwitches = total.voluntaryContextSwitches
        measurement.involuntaryContextSwitches = total.involuntaryContextSwitches
        if tree.processes > 0 {
            measurement.process = usage
            measurement.processCount = tree.processes
            measurement.largestProcess = tree.largest
        }
        return measurement
    }

    /// Why this run is not a successful launch, or nil if it is.
    public var failure: String? {
        if let protocolError { return protocolError }
        if let measureError { return measureError }
        switch figures.exit {
        case .timedOut: return "timed out before it was ready; its process group was killed"
        case .signaled(let signal): return "crashed: killed by signal \(signal) (\(signalName(signal)))"
        case .exited(let code) where code != 0: return "exited with status \(code)"
        case .failedToStart(let reason): return "failed to start: \(reason)"
        default: break
        }
        if figures.wallToReady == nil {
            let ignored = ignoredReadiness.map { "; \($0)" } ?? ""
            return "exited before it was ready (the probe never fired)\(ignored)"
        }
        return nil
    }
}

/// SIGSEGV, SIGABRT, … for a signal number.
func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS",
        8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM",
        15: "SIGTERM",
    ]
    return names[signal] ?? "signal \(signal)"
}
