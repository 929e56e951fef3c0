import CLaunchProfSupport
import Glibc
import Testing

@testable import LaunchProf

/// A thread that holds a block and is lapped, or that resumes after the ring
/// wrapped any number of times, driven step by step from two threads: it never
/// writes over another thread's events, and the counts stay exact.
@Suite("Trace ring block ownership")
struct TraceRingOwnershipTests {
    /// Hands the turn between threads explicitly (a pthread mutex and
    /// condition, which ThreadSanitizer understands).
    final class Turns: @unchecked Sendable {
        // @unchecked: `turn` is only touched with `lock` held.
        private var turn = 0
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

        init() {
            pthread_mutex_init(lock, nil)
            pthread_cond_init(changed, nil)
        }

        deinit {
            pthread_cond_destroy(changed)
            pthread_mutex_destroy(lock)
            lock.deallocate()
            changed.deallocate()
        }

        /// Waits until it is turn `number`, runs `body`, then passes the turn on.
        func take(_ number: Int, _ body: () -> Void) {
            pthread_mutex_lock(lock)
            while turn != number { pthread_cond_wait(changed, lock) }
            pthread_mutex_unlock(lock)
            body()
            pthread_mutex_lock(lock)
            turn = number + 1
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(lock)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let policy: OverflowPolicy
        let capacity: Int
        /// Events the quiet writer records before and after the busy one wraps the ring.
        let before: Int
        let after: Int
        /// Events of the busy writer in between.
        let busy: Int
        var testDescription: String { "\(policy), \(capacity) slots, \(before) + \(busy) + \(after)" }
    }

    static let cases = [
        // The stale block: one event, a wrap, then more.
        Case(policy: .overwriteOldest, capacity: 128, before: 1, after: 10, busy: 1000),
        // Lapped mid-block many times, then fills that block and claims the next.
        Case(policy: .overwriteOldest, capacity: 128, before: 3, after: 200, busy: 10_000),
        // A one-block ring the quiet writer holds: the busy writer's events are dropped, and counted.
        Case(policy: .overwriteOldest, capacity: 64, before: 5, after: 59, busy: 500),
        Case(policy: .dropNewest, capacity: 128, before: 1, after: 100, busy: 1000),
    ]

    @Test("a lapped or resuming writer keeps its own block and overwrites nobody's events", arguments: cases)
    func staleBlock(_ scenario: Case) throws {
        let ring = try #require(TraceRing(capacity: scenario.capacity, policy: scenario.policy))
        let turns = Turns()
        let quiet = 0
        let busy = 1
        runThreads(2) { thread in
            if thread == quiet {
                turns.take(0) { for i in 0..<scenario.before { StressEvents.record(ring, writer: quiet, sequence: i) } }
                turns.take(2) {
                    for i in scenario.before..<(scenario.before + scenario.after) {
                        StressEvents.record(ring, writer: quiet, sequence: i)
                    }
                }
            } else {
                turns.take(1) { for i in 0..<scenario.busy { StressEvents.record(ring, writer: busy, sequence: i) } }
            }
        }
        let quietEvents = scenario.before + scenario.after
        let check = StressEvents(writers: 2, perWriter: max(quietEvents, scenario.busy)).check(ring.snapshot())
        #expect(check.torn == 0)
        #expect(check.duplicates == 0)
        #expect(check.outOfOrder == 0)
        #expect(check.present + ring.statistics.lost == quietEvents + scenario.busy)
        // The quiet writer owned its first block throughout: none of its events there is lost.
        let kept = ring.snapshot().filter { $0.id >> 32 == UInt64(quiet) }.count
        if quietEvents <= 64 || scenario.policy == .dropNewest { #expect(kept == min(quietEvents, 64)) }
    }

    @Test("a thread's block goes back into rotation when the thread exits")
    func exitReleasesBlock() throws {
        let ring = try #require(TraceRing(capacity: 128, policy: .overwriteOldest))
        // Two threads each take a block, record once and exit.
        runThreads(2) { thread in StressEvents.record(ring, writer: thread, sequence: 0) }
        // Both blocks were released at exit: this thread overwrites them in turn.
        runThreads(1) { _ in for i in 0..<256 { StressEvents.record(ring, writer: 2, sequence: i) } }
        let events = ring.snapshot()
        let check = StressEvents(writers: 3, perWriter: 256).check(events)
        #expect(check.torn == 0)
        #expect(events.allSatisfy { $0.id >> 32 == 2 })
        #expect(check.present == 128)
        #expect(ring.statistics.lost == 2 + 256 - 128)
    }
}
