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
public struct ObservedRun: Sendable, Equatable {
    /// The launched process's id.
    public var pid: Int32
    /// Time to ready as the probe decided it; nil if it never became ready.
    public var wallToReady: UInt64?
    /// Time to exit; nil when the harness stopped or killed the process.
    public var wallToExit: UInt64?
    /// From the spawn to LaunchProf's process-entry record, in nanoseconds.
    public var processEntry: UInt64?
    /// From the spawn to `main`'s record, in nanoseconds.
    public var main: UInt64?
    /// Each milestone recorded, in order, from the spawn.
    public var milestones: [MilestoneTime] = []
    /// How the run ended, with the harness's own stops and timeouts named.
    public var exit: ExitStatus
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
    /// A harness pipe record this launchprof cannot read; the run was killed.
    public var protocolError: String?
    /// `--measure`: durations after ready (see ``RunMeasurement``).
    public var timeToSuspend: UInt64?
    /// With `--measure resume`: SIGCONT to the resumed record, in nanoseconds.
    public var timeToResume: UInt64?
    /// With `--measure shutdown`: SIGTERM to the exit, in nanoseconds.
    public var timeToShutdown: UInt64?
    /// With `--activate`: spawn to the first byte of the response.
    public var firstResponseByte: UInt64?
    /// With `--activate`: the warm request, connect to the whole response.
    public var warmRequest: UInt64?
    /// With `--trace-runs`: the run's intervals, from its own trace.
    public var intervals: [IntervalTime]?
    /// A LaunchProf program's main thread's CPU time up to launch complete.
    public var mainThreadCPU: UInt64?
    /// `--measure` could not measure what it was asked to; the run was killed.
    public var measureError: String?

    /// The run as a measurement, numbered `index` among its target's runs.
    public func measurement(index: Int, residency: ResidencyReport? = nil) -> RunMeasurement {
        // The run's figures are the whole tree's; the launched process's own
        // are kept beside them.
        let total = tree.processes > 0 ? tree.usage : usage
        var measurement = RunMeasurement(
            index: index, wallToExit: wallToExit, wallToReady: wallToReady, processEntry: processEntry, main: main,
            milestones: milestones, userCPU: total.userCPU, systemCPU: total.systemCPU,
            maxRSSBytes: total.maxRSSBytes, majorFaults: total.majorFaults, minorFaults: total.minorFaults,
            voluntaryContextSwitches: total.voluntaryContextSwitches,
            involuntaryContextSwitches: total.involuntaryContextSwitches, exit: exit, residency: residency,
            timeToSuspend: timeToSuspend, timeToResume: timeToResume, timeToShutdown: timeToShutdown,
            firstResponseByte: firstResponseByte, warmRequest: warmRequest, intervals: intervals,
            mainThreadCPU: mainThreadCPU)
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
        switch exit {
        case .timedOut: return "timed out before it was ready; its process group was killed"
        case .signaled(let signal): return "crashed: killed by signal \(signal) (\(signalName(signal)))"
        case .exited(let code) where code != 0: return "exited with status \(code)"
        case .failedToStart(let reason): return "failed to start: \(reason)"
        default: break
        }
        if wallToReady == nil { return "exited before it was ready (the probe never fired)" }
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
