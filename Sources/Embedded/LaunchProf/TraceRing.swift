import CLaunchProfSupport

/// A fixed-capacity, lock-free event ring (the C `lp_ring_t`): each thread
/// writes only into the block of slots it owns (docs/tracer.md).
///
/// The process-wide ring is created on first event; tests make their own to
/// check overflow and concurrency without touching the process's trace.
package final class TraceRing: @unchecked Sendable {
    // @unchecked: the C ring is written by many threads through its own
    // block-claim protocol; this class only owns its lifetime.
    let pointer: UnsafeMutablePointer<lp_ring_t>
    private let owned: Bool

    package init?(capacity: Int, policy: OverflowPolicy = .dropNewest) {
        guard capacity > 0, let ring = lp_ring_create(UInt64(capacity), policy.cValue) else { return nil }
        pointer = ring
        owned = true
    }

    init(borrowing pointer: UnsafeMutablePointer<lp_ring_t>) {
        self.pointer = pointer
        owned = false
    }

    deinit {
        if owned { lp_ring_destroy(pointer) }
    }

    /// The process-wide ring (created now if no event was recorded yet).
    static var global: TraceRing? {
        lp_global_ring_ensure().map { TraceRing(borrowing: $0) }
    }

    /// Records one event (the same path as the Signposter's).
    package func record(kind: UInt8, name: StaticString, id: UInt64 = 0, argument: Int64? = nil, category: UInt16 = 0) {
        lp_ring_record(
            pointer, kind, Names.encode(name), id, argument ?? 0,
            argument == nil ? 0 : UInt8(LP_FLAG_HAS_ARG), category)
    }

    package var statistics: TraceRingStatistics {
        let stats = lp_ring_stats(pointer)
        return TraceRingStatistics(
            capacity: Int(stats.capacity),
            lost: Int(stats.dropped + stats.overwritten),
            policy: OverflowPolicy(cValue: stats.policy))
    }

    /// The committed events, in slot order (not yet sorted by time).
    package func snapshot() -> [RecordedEvent] {
        let capacity = Int(pointer.pointee.capacity)
        let buffer = UnsafeMutablePointer<lp_event_t>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        let count = lp_ring_snapshot(pointer, buffer, capacity)
        return (0..<count).map { index in
            let event = buffer[index]
            return RecordedEvent(
                timestamp: event.ts, kind: event.kind, name: event.name, id: event.id,
                argument: event.flags & UInt8(LP_FLAG_HAS_ARG) != 0 ? event.arg : nil,
                threadID: event.tid, category: event.category,
                threadCPU: event.flags & UInt8(LP_FLAG_THREAD_CPU) != 0 ? UInt64(bitPattern: event.arg) : nil)
        }
    }
}
