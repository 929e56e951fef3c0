import CLaunchProfSupport
import Glibc
import Synchronization
import Testing

@testable import LaunchProf

/// Many writers lapping small rings, in both policies, while another thread
/// takes snapshots: no event is torn, each writer's order is kept, and what is
/// missing is exactly what the ring counts as lost.
///
/// LAUNCHPROF_RING_STRESS=N multiplies the work (16 writers, N rounds):
/// Scripts/checks/tsan.sh runs it with 2 under ThreadSanitizer.
@Suite("Trace ring under stress")
struct TraceRingStressTests {
    struct Load: Sendable, CustomTestStringConvertible {
        let policy: OverflowPolicy
        let capacity: Int
        var testDescription: String { "\(policy), \(capacity) slots" }
    }

    static let loads = [OverflowPolicy.overwriteOldest, .dropNewest].flatMap { policy in
        // 64 and 1024: blocks of 64 events; 1 << 16: blocks of 256 (LP_LARGE_RING_EVENTS).
        [64, 1024, 1 << 16].map { Load(policy: policy, capacity: $0) }
    }

    /// 1 by default (8 writers, one round), N from LAUNCHPROF_RING_STRESS (16 writers, N rounds).
    static let scale: Int = {
        guard let text = getenv("LAUNCHPROF_RING_STRESS").map({ String(cString: $0) }), let value = Int(text), value > 0
        else { return 1 }
        return min(value, 100)
    }()

    @Test("10^6 self-checking events per writer: none torn, order kept, counts exact", arguments: loads)
    func lappedWriters(load: Load) throws {
        let writers = Self.scale > 1 ? 16 : 8
        let perWriter = 1_000_000
        let events = StressEvents(writers: writers, perWriter: perWriter)
        for _ in 0..<Self.scale {
            let ring = try #require(TraceRing(capacity: load.capacity, policy: load.policy))
            let done = Atomic<Int>(0)
            let concurrent = Shared(StressEvents.Check())
            runThreads(writers + 1) { thread in
                guard thread < writers else {
                    // Snapshots while the writers run: whole events only, in order.
                    while done.load(ordering: .acquiring) < writers {
                        let check = events.check(ring.snapshot())
                        concurrent.withLock {
                            $0.torn += check.torn
                            $0.duplicates += check.duplicates
                            $0.outOfOrder += check.outOfOrder
                            $0.present += 1
                        }
                    }
                    return
                }
                for sequence in 0..<perWriter { StressEvents.record(ring, writer: thread, sequence: sequence) }
                done.add(1, ordering: .releasing)
            }
            let final = events.check(ring.snapshot())
            let statistics = ring.statistics
            let during = concurrent.withLock { $0 }
            #expect(final.torn == 0)
            #expect(final.duplicates == 0)
            #expect(final.outOfOrder == 0)
            #expect(final.present + statistics.lost == writers * perWriter)
            #expect(final.present <= statistics.capacity)
            if load.policy == .dropNewest { #expect(final.gaps == 0) }
            #expect(during.torn == 0)
            #expect(during.duplicates == 0)
            #expect(during.outOfOrder == 0)
        }
    }
}
