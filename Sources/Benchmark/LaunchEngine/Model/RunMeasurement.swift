import LaunchAnalysis

/// JSON: `{"kind": "exited", "code": 0}`, `{"kind": "signaled", "signal": 11}`,
/// `{"kind": "stopped_by_harness", "signal": 15}`, `{"kind": "timed_out"}`,
/// `{"kind": "failed_to_start", "reason": "…"}`.
extension ExitStatus: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, code, signal, reason
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "exited": self = .exited(try container.decode(Int32.self, forKey: .code))
        case "signaled": self = .signaled(try container.decode(Int32.self, forKey: .signal))
        case "stopped_by_harness": self = .stoppedByHarness(signal: try container.decode(Int32.self, forKey: .signal))
        case "timed_out": self = .timedOut
        case "failed_to_start": self = .failedToStart(try container.decode(String.self, forKey: .reason))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription:
                    "unknown exit kind '\(kind)' (expected exited, signaled, stopped_by_harness, timed_out or failed_to_start)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .exited(let code):
            try container.encode("exited", forKey: .kind)
            try container.encode(code, forKey: .code)
        case .signaled(let signal):
            try container.encode("signaled", forKey: .kind)
            try container.encode(signal, forKey: .signal)
        case .stoppedByHarness(let signal):
            try container.encode("stopped_by_harness", forKey: .kind)
            try container.encode(signal, forKey: .signal)
        case .timedOut:
            try container.encode("timed_out", forKey: .kind)
        case .failedToStart(let reason):
            try container.encode("failed_to_start", forKey: .kind)
            try container.encode(reason, forKey: .reason)
        }
    }
}

/// Everything measured about one launch. Durations are nanoseconds since the
/// harness's t0 (CLOCK_MONOTONIC just before the spawner's vfork).
public struct RunMeasurement: Sendable, Equatable, Codable {
    /// 0-based among the measured runs of its target and mode (warm-ups excluded).
    public var index: Int
    /// Time to exit; nil when the process stayed up and the harness stopped it.
    public var wallToExit: UInt64?
    /// Time to ready as decided by the probe (equals wallToExit for `exit`).
    public var wallToReady: UInt64?
    /// Time to process entry (the LaunchProf constructor), traced programs only.
    public var processEntry: UInt64?
    /// Time to main (`recordLaunchStart()`), traced programs only.
    public var main: UInt64?
    /// Each milestone recorded, in order, from the spawn.
    public var milestones: [MilestoneTime]
    /// CPU time, page faults and context switches: summed over every process
    /// of the run's tree (the launched process, the children it waited for,
    /// and every descendant launchprof's spawner reaped).
    public var userCPU: UInt64
    /// CPU time in the kernel, of the whole tree, in nanoseconds.
    public var systemCPU: UInt64
    /// The largest memory peak of one process of the tree (``largestProcess``
    /// says which). Not a sum: peaks of different processes need not overlap.
    public var maxRSSBytes: UInt64
    /// Results files written before launchprof had its spawner: true when
    /// `maxRSSBytes` was only launchprof's own peak (an upper bound). Never
    /// set by this version; read so old baselines stay comparable.
    @SavedFlag public var maxRSSIsUpperBound: Bool
    /// The launched process's own figures (its wait4: the children it waited
    /// for itself are included), beside the tree's. nil in older files.
    public var process: ResourceUsage?
    /// How many processes of the tree launchprof reaped (see `TreeUsage`).
    public var processCount: Int?
    /// The process with the largest max RSS.
    public var largestProcess: LargestProcess?
    /// Page faults that read from disk, over the whole tree.
    public var majorFaults: UInt64
    /// Page faults served from memory, over the whole tree.
    public var minorFaults: UInt64
    /// Times a process of the tree gave up the CPU.
    public var voluntaryContextSwitches: UInt64
    /// Times a process of the tree was preempted.
    public var involuntaryContextSwitches: UInt64
    /// How the process ended.
    public var exit: ExitStatus
    /// Cold runs: page-cache residency of the evicted files just before the run.
    public var residency: ResidencyReport?
    /// `--measure resume` / `--measure shutdown`: durations of the lifecycle
    /// after ready (not since t0), nil when not measured.
    public var timeToSuspend: UInt64?
    /// With `--measure resume`: from SIGCONT to LaunchProf's resumed record, in nanoseconds.
    public var timeToResume: UInt64?
    /// With `--measure shutdown`: from SIGTERM to the exit, in nanoseconds.
    public var timeToShutdown: UInt64?
    /// With `--activate`: from the spawn to the response's first byte, in nanoseconds.
    public var firstResponseByte: UInt64?
    /// With `--activate`: the same request once up, connect to whole response, in nanoseconds.
    public var warmRequest: UInt64?
    /// With `--trace-runs`: the signpost intervals of the run's own trace,
    /// by name and thread role; nil when the run was not traced.
    public var intervals: [IntervalTime]?
    /// A LaunchProf program's main thread's CPU time from process start to
    /// launch complete (`LP1 maincpu`), in nanoseconds: time to ready minus
    /// it is the time the main thread waited.
    public var mainThreadCPU: UInt64?
    /// With `--counts`: the launch's event counts to ready; nil when not counted.
    public var counts: LaunchCounts?
    /// The CPU the launched process last ran on (/proc/PID/stat field 39,
    /// read by the spawner when the run was marked ready, else at its
    /// exit); nil in older files or when it could not be read. `gate`
    /// compares only runs that ran on the same CPU.
    public var cpu: Int?

    /// A run's measurements, as the executor makes them.
    public init(
        index: Int, wallToExit: UInt64? = nil, wallToReady: UInt64? = nil, processEntry: UInt64? = nil,
        main: UInt64? = nil, milestones: [MilestoneTime] = [], userCPU: UInt64 = 0, systemCPU: UInt64 = 0,
        maxRSSBytes: UInt64 = 0, majorFaults: UInt64 = 0, minorFaults: UInt64 = 0,
        voluntaryContextSwitches: UInt64 = 0, involuntaryContextSwitches: UInt64 = 0,
        exit: ExitStatus, residency: ResidencyReport? = nil, timeToSuspend: UInt64? = nil,
        timeToResume: UInt64? = nil, timeToShutdown: UInt64? = nil, firstResponseByte: UInt64? = nil,
        warmRequest: UInt64? = nil, intervals: [IntervalTime]? = nil, mainThreadCPU: UInt64? = nil
    ) {
        self.index = index
        self.wallToExit = wallToExit
        self.wallToReady = wallToReady
        self.processEntry = processEntry
        self.main = main
        self.milestones = milestones
        self.userCPU = userCPU
        self.systemCPU = systemCPU
        self.maxRSSBytes = maxRSSBytes
        self.majorFaults = majorFaults
        self.minorFaults = minorFaults
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
        self.exit = exit
        self.residency = residency
        self.timeToSuspend = timeToSuspend
        self.timeToResume = timeToResume
        self.timeToShutdown = timeToShutdown
        self.firstResponseByte = firstResponseByte
        self.warmRequest = warmRequest
        self.intervals = intervals
        self.mainThreadCPU = mainThreadCPU
    }
}
