import LaunchProf

/// One firing of the memory-pressure trigger.
public struct MemoryPressure: Sendable, Equatable, CustomStringConvertible {
    /// When the trigger fired (`CLOCK_MONOTONIC`, nanoseconds).
    public var nanoseconds: UInt64
    /// The pressure file that fired (/proc/pressure/memory or a cgroup's).
    public var source: String

    public var description: String { "stall threshold crossed in \(source)" }
}
