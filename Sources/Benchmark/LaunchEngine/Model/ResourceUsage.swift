/// The rusage fields a launch is measured by, in the harness's units.
public struct ResourceUsage: Sendable, Equatable, Codable {
    /// CPU time in user mode, in nanoseconds.
    public var userCPU: UInt64
    /// CPU time in the kernel, in nanoseconds.
    public var systemCPU: UInt64
    /// The peak resident set size, in bytes.
    public var maxRSSBytes: UInt64
    /// Page faults that read from disk.
    public var majorFaults: UInt64
    /// Page faults served from memory.
    public var minorFaults: UInt64
    /// Times the CPU was given up (waiting).
    public var voluntaryContextSwitches: UInt64
    /// Times the process was preempted.
    public var involuntaryContextSwitches: UInt64

    /// Usage with these values.
    public init(
        userCPU: UInt64 = 0, systemCPU: UInt64 = 0, maxRSSBytes: UInt64 = 0, majorFaults: UInt64 = 0,
        minorFaults: UInt64 = 0, voluntaryContextSwitches: UInt64 = 0, involuntaryContextSwitches: UInt64 = 0
    ) {
        self.userCPU = userCPU
        self.systemCPU = systemCPU
        self.maxRSSBytes = maxRSSBytes
        self.majorFaults = majorFaults
        self.minorFaults = minorFaults
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
    }
}
