/// Settings of the run loop for one launch.
public struct RunSettings: Sendable, Equatable {
    public var probe: ReadyProbe
    /// The run is killed (with its process group) if it is neither ready nor
    /// exited by then.
    public var timeout: Duration
    /// How long a process stopped with SIGTERM after ready may take to exit
    /// before it gets SIGKILL.
    public var grace: Duration
    /// Lifecycle phases to measure after ready (`--measure`).
    public var measure: [LifecycleMeasure]

    public init(
        probe: ReadyProbe = .exit, timeout: Duration = .seconds(60), grace: Duration = .seconds(2),
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
    public var pid: Int32
    /// Time to ready as the probe decided it; nil if it never became ready.
    public var wallToReady: UInt64?
    /// Time to exit; nil when the harness stopped or killed the process.
    public var wallToExit: UInt64?
    public var processEntry: UInt64?
    public var main: UInt64?
    public var milestones: [MilestoneTime] = []
    /// How the run ended, with the harness's own stops and timeouts named.
    public var exit: ExitStatus
    public var usage: ResourceUsage
    /// SIGINT arrived during the run; the process was killed and the run
    /// does not count.
    public var interrupted = false
    /// The kernel's max RSS for this run is the harness's own peak (see
    /// ``LaunchedProcess/parentPeakRSSBytes``): the program used at most that.
    public var maxRSSIsUpperBound = false
    /// A harness pipe record this launchprof cannot read; the run was killed.
    public var protocolError: String?
    /// `--measure`: durations after ready (see ``RunMeasurement``).
    public var timeToSuspend: UInt64?
    public var timeToResume: UInt64?
    public var timeToShutdown: UInt64?
    /// `--measure` could not measure what it was asked to; the run was killed.
    public var measureError: String?

    /// The run as a measurement, numbered `index` among its target's runs.
    public func measurement(index: Int, residency: ResidencyReport? = nil) -> RunMeasurement {
        var measurement = RunMeasurement(
            index: index, wallToExit: wallToExit, wallToReady: wallToReady, processEntry: processEntry, main: main,
            milestones: milestones, userCPU: usage.userCPU, systemCPU: usage.systemCPU,
            maxRSSBytes: usage.maxRSSBytes, majorFaults: usage.majorFaults, minorFaults: usage.minorFaults,
            voluntaryContextSwitches: usage.voluntaryContextSwitches,
            involuntaryContextSwitches: usage.involuntaryContextSwitches, exit: exit, residency: residency,
            timeToSuspend: timeToSuspend, timeToResume: timeToResume, timeToShutdown: timeToShutdown)
        if maxRSSIsUpperBound { measurement.maxRSSIsUpperBound = true }
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
