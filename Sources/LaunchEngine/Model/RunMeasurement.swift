import LaunchAnalysis

/// How a measured process ended.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    /// exit(code).
    case exited(Int32)
    /// Killed by a signal it did not send itself on purpose (crash, or external).
    case signaled(Int32)
    /// Stayed up after ready and was stopped by the harness with `signal`.
    case stoppedByHarness(signal: Int32)
    /// Did not become ready (or exit) within the timeout; its process group was killed.
    case timedOut
    /// Could not be started at all (the message says why).
    case failedToStart(String)

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        case .stoppedByHarness(let signal): "stopped by launchprof after ready (signal \(signal))"
        case .timedOut: "timed out"
        case .failedToStart(let reason): "failed to start: \(reason)"
        }
    }

    /// Whether the run counts as a successful launch.
    public var isSuccess: Bool {
        switch self {
        case .exited(let code): code == 0
        case .stoppedByHarness: true
        case .signaled, .timedOut, .failedToStart: false
        }
    }
}

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

/// A traced milestone's time since spawn.
public struct MilestoneTime: Sendable, Equatable, Codable {
    /// The milestone's name.
    public var name: String
    /// From the spawn to the milestone.
    public var nanoseconds: UInt64

    /// A milestone `name` reached `nanoseconds` after the spawn.
    public init(name: String, nanoseconds: UInt64) {
        self.name = name
        self.nanoseconds = nanoseconds
    }
}

/// A signpost interval's time in one run (`--trace-runs`): every interval
/// of that name on that kind of thread, begun before ready, added up.
public struct IntervalTime: Sendable, Equatable, Codable {
    /// The interval's name.
    public var name: String
    /// Its role on the launch's critical path, which the attribution of a
    /// change names: `path` (a step of the path to launch complete, on
    /// whatever thread), `enclosing` (a path step that contains others),
    /// `off` (work the launch did not wait for). Results written before the
    /// critical path have `main` (the process's main thread) or `other`.
    public var thread: String
    /// Their total duration, in nanoseconds (cut at ready).
    public var nanoseconds: UInt64
    /// How many there were.
    public var count: Int
    /// For `path` intervals: whether every one ran on the process's main
    /// thread (then its CPU time, `LP1 maincpu`, is the path's); nil otherwise.
    public var onMainThread: Bool? = nil

    /// `count` intervals `name` on `thread` taking `nanoseconds` in all.
    public init(name: String, thread: String, nanoseconds: UInt64, count: Int) {
        self.name = name
        self.thread = thread
        self.nanoseconds = nanoseconds
        self.count = count
    }

    /// `path/NAME`, `enclosing/NAME`, `off/NAME` (`main/NAME`, `other/NAME`
    /// in older results): the key of its metric (`interval:path/NAME`).
    public var key: String { "\(thread)/\(name)" }
}

/// Page-cache residency of the cold-run file set just before a run.
public struct ResidencyReport: Sendable, Equatable, Codable {
    /// One file of the set, before (and after) the run.
    public struct File: Sendable, Equatable, Codable {
        /// The file.
        public var path: String
        /// Resident pages just before the run (after eviction).
        public var residentPages: Int
        /// Its size in pages.
        public var totalPages: Int
        /// Why the file could not be evicted, when it stayed resident.
        public var note: String?
        /// Resident pages just after the run: the difference is what the
        /// launch brought in from disk. nil in older files.
        public var residentPagesAfter: Int?
        /// True when launchprof itself maps the file (the C library, the
        /// loader, the C++ runtime of its statically linked Swift runtime):
        /// it cannot be evicted while launchprof runs, as on any running
        /// system, and does not make a run "not cold".
        public var expected: Bool?

        /// A file's residency, as the cold-cache preparer measures it.
        public init(
            path: String, residentPages: Int, totalPages: Int, note: String? = nil, residentPagesAfter: Int? = nil,
            expected: Bool? = nil
        ) {
            self.path = path
            self.residentPages = residentPages
            self.totalPages = totalPages
            self.note = note
            self.residentPagesAfter = residentPagesAfter
            self.expected = expected
        }

        /// Pages the run brought into the page cache (read from disk).
        public var pagesRead: Int? { residentPagesAfter.map { max(0, $0 - residentPages) } }
    }

    /// Each file checked, in launch order.
    public var files: [File]
    /// The page size the counts are in (bytes); nil in older files (4096).
    public var pageSize: Int?

    /// A report of `files`, whose pages are `pageSize` bytes.
    public init(files: [File], pageSize: Int? = nil) {
        self.files = files
        self.pageSize = pageSize
    }

    /// Pages resident before the run, over all files.
    public var residentPages: Int { files.reduce(0) { $0 + $1.residentPages } }
    /// Pages of all the files.
    public var totalPages: Int { files.reduce(0) { $0 + $1.totalPages } }
    /// Resident share of the file set, 0...1.
    public var residentFraction: Double {
        totalPages == 0 ? 0 : Double(residentPages) / Double(totalPages)
    }

    /// Resident share of the files that should have been evicted (those
    /// launchprof itself maps left out), 0...1.
    public var unexpectedResidentFraction: Double {
        let files = files.filter { $0.expected != true }
        let total = files.reduce(0) { $0 + $1.totalPages }
        return total == 0 ? 0 : Double(files.reduce(0) { $0 + $1.residentPages }) / Double(total)
    }

    /// Bytes the run read into the page cache, per file (largest first), when
    /// the residency after the run was measured.
    public var bytesRead: [(path: String, bytes: UInt64)] {
        let size = UInt64(pageSize ?? 4096)
        return files.compactMap { file in file.pagesRead.map { (file.path, UInt64($0) * size) } }
            .sorted { $0.bytes > $1.bytes }
    }

    /// All bytes the run read into the page cache, or nil when not measured.
    public var totalBytesRead: UInt64? {
        let read = bytesRead
        return read.isEmpty && !files.isEmpty && files.allSatisfy({ $0.residentPagesAfter == nil })
            ? nil : read.reduce(0) { $0 + $1.bytes }
    }
}

/// Everything measured about one launch. Durations are nanoseconds since the
/// harness's t0 (CLOCK_MONOTONIC just before posix_spawn).
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
    /// How many processes of the tree launchprof reaped (see ``TreeUsage``).
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
