/// Event counts of one launch, from spawn to ready (docs/counts.md): what
/// `--counts perf` reads with perf_event_open on the launched tree, or
/// `--counts callgrind` with Valgrind. A count the source could not measure
/// is nil (``CounterReport`` says why).
public struct LaunchCounts: Sendable, Equatable, Codable {
    /// Instructions retired (hardware counter, or Valgrind's `Ir`).
    public var instructions: UInt64?
    /// CPU cycles (hardware counter).
    public var cycles: UInt64?
    /// Last-level cache references (hardware counter).
    public var cacheReferences: UInt64?
    /// Last-level cache misses (hardware counter).
    public var cacheMisses: UInt64?
    /// Mispredicted branches (hardware counter).
    public var branchMisses: UInt64?
    /// CPU time the tree ran while counted (software counter), in nanoseconds.
    public var taskClock: UInt64?
    /// Page faults (software counter): minor and major together.
    public var pageFaults: UInt64?
    /// Context switches (software counter).
    public var contextSwitches: UInt64?
    /// Moves of a thread of the tree from one CPU to another (software counter).
    public var cpuMigrations: UInt64?

    /// Counts with these values; nil: not measured.
    public init(
        instructions: UInt64? = nil, cycles: UInt64? = nil, cacheReferences: UInt64? = nil, cacheMisses: UInt64? = nil,
        branchMisses: UInt64? = nil, taskClock: UInt64? = nil, pageFaults: UInt64? = nil, contextSwitches: UInt64? = nil,
        cpuMigrations: UInt64? = nil
    ) {
        self.instructions = instructions
        self.cycles = cycles
        self.cacheReferences = cacheReferences
        self.cacheMisses = cacheMisses
        self.branchMisses = branchMisses
        self.taskClock = taskClock
        self.pageFaults = pageFaults
        self.contextSwitches = contextSwitches
        self.cpuMigrations = cpuMigrations
    }

    /// The count a metric of the ``Metric/Group/counter`` group reads.
    public subscript(metric: Metric) -> UInt64? {
        switch metric {
        case .instructions: instructions
        case .cycles: cycles
        case .cacheReferences: cacheReferences
        case .cacheMisses: cacheMisses
        case .branchMisses: branchMisses
        case .taskClock: taskClock
        case .pageFaults: pageFaults
        case .contextSwitches: contextSwitches
        case .cpuMigrations: cpuMigrations
        default: nil
        }
    }
}
