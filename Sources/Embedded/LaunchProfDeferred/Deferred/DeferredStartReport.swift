import LaunchProf

/// When deferred tasks began running, and why then.
public struct DeferredStartReport: Sendable, Equatable {
    /// Why the tasks began then: the process was idle, or the wait for idleness ran out.
    public let reason: DeferredStartReason
    /// CLOCK_MONOTONIC nanoseconds.
    public let nanoseconds: UInt64
}
