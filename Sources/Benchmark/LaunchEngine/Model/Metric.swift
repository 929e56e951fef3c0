/// A measured quantity of a run, with its unit. Keys are stable: they name
/// metrics in JSON results, budgets and baselines.
public enum Metric: Sendable, Hashable, Codable, CustomStringConvertible {
    /// From the spawn to ready (the probe); equal to ``wallToExit`` for the exit probe.
    case wallToReady
    /// From the spawn to the exit of the process.
    case wallToExit
    /// From the spawn to LaunchProf's process-entry constructor: exec and dynamic loading.
    case processEntry
    /// From the spawn to `LaunchTracker.recordLaunchStart()`.
    case main
    /// From the spawn to the named milestone.
    case milestone(String)
    /// CPU time in user mode, of the whole process tree.
    case userCPU
    /// CPU time in the kernel, of the whole process tree.
    case systemCPU
    /// User and system CPU time together.
    case cpu  // user + system
    /// The largest resident set size of any process of the tree, in bytes.
    case maxRSS
    /// Page faults that read from disk, over the whole tree.
    case majorFaults
    /// Page faults served from memory, over the whole tree.
    case minorFaults
    /// Times a process of the tree gave up the CPU (waiting).
    case voluntaryContextSwitches
    /// Times a process of the tree was preempted.
    case involuntaryContextSwitches
    /// `--measure resume`: SIGTSTP sent to the process stopped (resolution 1 ms).
    case timeToSuspend
    /// `--measure resume`: SIGCONT sent to LaunchProf's `LP1 resumed` record.
    case timeToResume
    /// `--measure shutdown`: SIGTERM sent to the process gone.
    case timeToShutdown
    /// `--activate`: from the spawn to the first byte of the response to the
    /// request that waited in the backlog while the program launched.
    case firstResponseByte
    /// `--trace-runs`: the time in signpost intervals of this name on this
    /// role on the launch's critical path (`path/NAME`, `enclosing/NAME`,
    /// `off/NAME`; older results: `main/NAME`, `other/NAME`), up to ready.
    case interval(String)
    /// `--activate`: the same request once the program is up, from connect
    /// to the whole response: what the launch adds to the first is the rest.
    case warmRequest
    /// `--counts`: instructions retired from spawn to ready, over the tree.
    case instructions
    /// `--counts perf`: CPU cycles (hardware counter).
    case cycles
    /// `--counts perf`: last-level cache references (hardware counter).
    case cacheReferences
    /// `--counts perf`: last-level cache misses (hardware counter).
    case cacheMisses
    /// `--counts perf`: mispredicted branches (hardware counter).
    case branchMisses
    /// `--counts perf`: CPU time of the tree to ready (software counter).
    case taskClock
    /// `--counts perf`: page faults to ready (software counter).
    case pageFaults
    /// `--counts perf`: context switches to ready (software counter).
    case contextSwitches
    /// `--counts perf`: CPU migrations to ready (software counter).
    case cpuMigrations

    /// The unit a metric is measured in.
    public enum Unit: String, Sendable, Codable {
        /// Times: wall clock, CPU, lifecycle phases.
        case nanoseconds
        /// Memory: the maximum resident set size.
        case bytes
        /// Events: page faults, context switches.
        case count
    }

    /// This metric's unit.
    public var unit: Unit {
        switch self {
        case .wallToReady, .wallToExit, .processEntry, .main, .milestone, .interval, .userCPU, .systemCPU, .cpu: .nanoseconds
        case .timeToSuspend, .timeToResume, .timeToShutdown, .firstResponseByte, .warmRequest: .nanoseconds
        case .maxRSS: .bytes
        case .majorFaults, .minorFaults, .voluntaryContextSwitches, .involuntaryContextSwitches: .count
        case .taskClock: .nanoseconds
        case .instructions, .cycles, .cacheReferences, .cacheMisses, .branchMisses, .pageFaults, .contextSwitches, .cpuMigrations:
            .count
        }
    }

    /// Stable key: `wall_to_ready`, `milestone:<name>`, `max_rss`, …
    public var key: String {
        switch self {
        case .wallToReady: "wall_to_ready"
        case .wallToExit: "wall_to_exit"
        case .processEntry: "process_entry"
        case .main: "main"
        case .milestone(let name): "milestone:\(name)"
        case .interval(let name): "interval:\(name)"
        case .userCPU: "user_cpu"
        case .systemCPU: "system_cpu"
        case .cpu: "cpu"
        case .maxRSS: "max_rss"
        case .majorFaults: "major_faults"
        case .minorFaults: "minor_faults"
        case .voluntaryContextSwitches: "voluntary_context_switches"
        case .involuntaryContextSwitches: "involuntary_context_switches"
        case .timeToSuspend: "time_to_suspend"
        case .timeToResume: "time_to_resume"
        case .timeToShutdown: "time_to_shutdown"
        case .firstResponseByte: "first_response_byte"
        case .warmRequest: "warm_request"
        case .instructions: "instructions"
        case .cycles: "cycles"
        case .cacheReferences: "cache_references"
        case .cacheMisses: "cache_misses"
        case .branchMisses: "branch_misses"
        case .taskClock: "task_clock"
        case .pageFaults: "page_faults"
        case .contextSwitches: "context_switches"
        case .cpuMigrations: "cpu_migrations"
        }
    }

    /// An interval metric's key split: `main/NAME` -> ("main", "NAME").
    public static func intervalParts(_ key: String) -> (thread: String, name: String) {
        guard let slash = key.firstIndex(of: "/") else { return ("other", key) }
        return (String(key[..<slash]), String(key[key.index(after: slash)...]))
    }

    /// Every metric the program does not name (all but milestones and
    /// intervals), in the order reports list them: the one list of them.
    /// Keys, config names and the summaries come from it; a test checks
    /// that it holds every case ``group`` places.
    public static let unnamed: [Metric] = [
        .wallToReady, .wallToExit, .processEntry, .main,
        .firstResponseByte, .warmRequest, .timeToSuspend, .timeToResume, .timeToShutdown,
        .userCPU, .systemCPU, .cpu, .maxRSS, .majorFaults, .minorFaults, .voluntaryContextSwitches, .involuntaryContextSwitches,
        .instructions, .cycles, .cacheReferences, .cacheMisses, .branchMisses, .taskClock, .pageFaults, .contextSwitches,
        .cpuMigrations,
    ]

    /// Which part of a report a metric belongs to.
    public enum Group: Sendable {
        /// Times from the spawn: ready, exit, process entry, main.
        case launch
        /// Milestones and intervals the program names.
        case named
        /// Times of the phases `--activate` and `--measure` add.
        case phase
        /// CPU, memory, faults and context switches of the process tree.
        case resource
        /// Event counts to ready (`--counts`): instructions, cycles, caches,
        /// branches, software counters.
        case counter
    }

    /// Its part of a report. The switch is exhaustive: a new metric gets a
    /// group here or the build fails, and then a place in ``unnamed``.
    public var group: Group {
        switch self {
        case .wallToReady, .wallToExit, .processEntry, .main: .launch
        case .milestone, .interval: .named
        case .firstResponseByte, .warmRequest, .timeToSuspend, .timeToResume, .timeToShutdown: .phase
        case .userCPU, .systemCPU, .cpu, .maxRSS, .majorFaults, .minorFaults, .voluntaryContextSwitches, .involuntaryContextSwitches:
            .resource
        case .instructions, .cycles, .cacheReferences, .cacheMisses, .branchMisses, .taskClock, .pageFaults, .contextSwitches,
            .cpuMigrations:
            .counter
        }
    }

    /// The metric named `key` (`wall_to_ready`, `milestone:NAME`, …); nil for an unknown key.
    public init?(key: String) {
        if key.hasPrefix("milestone:") {
            self = .milestone(String(key.dropFirst("milestone:".count)))
            return
        }
        if key.hasPrefix("interval:") {
            self = .interval(String(key.dropFirst("interval:".count)))
            return
        }
        guard let found = Self.unnamed.first(where: { $0.key == key }) else { return nil }
        self = found
    }

    public var description: String { key }

    /// This metric's value in `run`, nil when the run did not measure it.
    public func value(in run: RunMeasurement) -> Double? {
        // Not `.map(Double.init)`: for a UInt64 that resolves to
        // Double(bitPattern:) and turns 10 ms into 4.9e-317.
        switch self {
        case .wallToReady: run.wallToReady.map { Double($0) }
        case .wallToExit: run.wallToExit.map { Double($0) }
        case .processEntry: run.processEntry.map { Double($0) }
        case .main: run.main.map { Double($0) }
        case .milestone(let name): run.milestones.first { $0.name == name }.map { Double($0.nanoseconds) }
        // A traced run without the interval spent no time in it.
        case .interval(let key): run.intervals.map { intervals in Double(intervals.first { $0.key == key }?.nanoseconds ?? 0) }
        case .userCPU: Double(run.userCPU)
        case .systemCPU: Double(run.systemCPU)
        case .cpu: Double(run.userCPU + run.systemCPU)
        case .maxRSS: Double(run.maxRSSBytes)
        case .majorFaults: Double(run.majorFaults)
        case .minorFaults: Double(run.minorFaults)
        case .voluntaryContextSwitches: Double(run.voluntaryContextSwitches)
        case .involuntaryContextSwitches: Double(run.involuntaryContextSwitches)
        case .timeToSuspend: run.timeToSuspend.map { Double($0) }
        case .timeToResume: run.timeToResume.map { Double($0) }
        case .timeToShutdown: run.timeToShutdown.map { Double($0) }
        case .firstResponseByte: run.firstResponseByte.map { Double($0) }
        case .warmRequest: run.warmRequest.map { Double($0) }
        case .instructions, .cycles, .cacheReferences, .cacheMisses, .branchMisses, .taskClock, .pageFaults, .contextSwitches,
            .cpuMigrations:
            run.counts?[self].map { Double($0) }
        }
    }
}

extension Metric {
    /// Friendlier names accepted in config files.
    package static let aliases = ["ready": "wall_to_ready", "exit": "wall_to_exit", "pre_main": "main"]

    /// The metric names a config file accepts, for its error messages.
    package static var configNames: String {
        let aliasOf = Dictionary(aliases.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        let keys = unnamed.map { metric in aliasOf[metric.key].map { "\(metric.key) (\($0))" } ?? metric.key }
        return (keys + ["milestone:NAME", "interval:path/NAME"]).joined(separator: ", ")
    }
}
