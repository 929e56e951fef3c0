import LaunchProfFormat

/// The machine a result was measured on.
public struct MachineDescription: Sendable, Equatable, Codable {
    /// The machine's host name.
    public var hostname: String
    /// The kernel release (`uname -r`).
    public var kernel: String
    /// The CPU model name from /proc/cpuinfo.
    public var cpuModel: String
    /// The CPUs online.
    public var cpuCount: Int
    /// The machine's memory, in bytes.
    public var memoryBytes: UInt64

    /// A description with these values; ``current()`` reads this machine's.
    public init(hostname: String, kernel: String, cpuModel: String, cpuCount: Int, memoryBytes: UInt64) {
        self.hostname = hostname
        self.kernel = kernel
        self.cpuModel = cpuModel
        self.cpuCount = cpuCount
        self.memoryBytes = memoryBytes
    }
}
