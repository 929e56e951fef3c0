import CLaunchProfSupport

/// Counters of a ring.
public struct TraceRingStatistics: Sendable, Equatable {
    /// Slots in the ring (the requested capacity rounded up to 64).
    public var capacity: Int
    /// Events not in the ring: dropped (the ring was full, or every block
    /// was owned by another thread) or overwritten. Once no thread records,
    /// exactly the events recorded minus the events a snapshot holds.
    public var lost: Int
    /// What the ring does when full.
    public var policy: OverflowPolicy
}
