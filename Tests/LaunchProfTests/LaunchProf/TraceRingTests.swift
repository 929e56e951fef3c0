import CLaunchProfSupport
import Synchronization
import Testing

@testable import LaunchProf

@Suite("Trace ring")
struct TraceRingTests {
    @Test("capacity is rounded up to whole 64-event blocks")
    func capacityRounding() throws {
        let ring = try #require(TraceRing(capacity: 1000))
        #expect(ring.statistics.capacity == 1024)
        #expect(ring.statistics.lost == 0)
        #expect(ring.snapshot().isEmpty)
    }

    @Test("a ring of 64 Ki events or more has 256-event blocks, whole, and each thread fills one alone")
    func largeRingBlocks() throws {
        let ring = try #require(TraceRing(capacity: 65_600, policy: .dropNewest))
        #expect(ring.statistics.capacity == 65_792)  // 257 blocks of 256
        // Two threads, one event each: two blocks taken, each thread's
        // first event at the start of its own 256-event block.
        runThreads(2) { thread in ring.record(kind: UInt8(LP_KIND_EVENT), name: "block", id: UInt64(thread)) }
        #expect(lp_ring_stats(ring.pointer).claimed == 2)
        var events = [lp_event_t](repeating: lp_event_t(), count: 4)
        let count = lp_ring_snapshot(ring.pointer, &events, events.count)
        #expect(count == 2)
        // Commit markers: claim number x 256 + slot + 1.
        #expect(events.prefix(count).map { ($0.seq - 1) % 256 } == [0, 0])
        #expect(Set(events.prefix(count).map { ($0.seq - 1) / 256 }) == [0, 1])
    }

    @Test("the default ring keeps one event of each of 1,024 short-lived threads in drop-newest (a block each)")
    func defaultRingHoldsManyThreadLifetimes() throws {
        let ring = try #require(TraceRing(capacity: Int(LP_DEFAULT_RING_EVENTS), policy: .dropNewest))
        #expect(ring.statistics.capacity == 262_144)  // 1,024 blocks of 256
        // Threads one after another, each recording once and exiting: each
        // takes a block and leaves it released with 255 slots unused.
        for thread in 0..<1024 {
            runThreads(1) { _ in ring.record(kind: UInt8(LP_KIND_EVENT), name: "lifetime", id: UInt64(thread) + 1) }
        }
        #expect(ring.statistics.lost == 0)
        #expect(ring.snapshot().count == 1024)
        // The 1,025th thread finds every block taken: its event is dropped, and counted.
        runThreads(1) { _ in ring.record(kind: UInt8(LP_KIND_EVENT), name: "lifetime", id: 1025) }
        #expect(ring.statistics.lost == 1)
        #expect(ring.snapshot().count == 1024)
    }

    @Test("drop-newest keeps the earliest events and counts every dropped one")
    func dropNewestOverflow() throws {
        let ring = try #require(TraceRing(capacity: 1000, policy: .dropNewest))
        for i in 0..<1500 {
            ring.record(kind: UInt8(LP_KIND_EVENT), name: "overflow", id: UInt64(i))
        }
        let events = ring.snapshot()
        #expect(events.count == 1024)
        #expect(ring.statistics.lost == 1500 - 1024)
        #expect(events.map(\.id) == (0..<1024).map(UInt64.init))
    }

    @Test("overwrite-oldest keeps the latest events and counts every overwritten one")
    func overwriteOldestOverflow() throws {
        let ring = try #require(TraceRing(capacity: 128, policy: .overwriteOldest))
        for i in 0..<1000 {
            ring.record(kind: UInt8(LP_KIND_EVENT), name: "overflow", id: UInt64(i))
        }
        let events = ring.snapshot().sorted { $0.id < $1.id }
        // Blocks of 64 wrap: the last two blocks written are the ones kept.
        let kept = 1000 - (1000 % 64 == 0 ? 128 : 64 + 1000 % 64)
        #expect(events.count == 1000 - kept)
        #expect(events.first?.id == UInt64(kept))
        #expect(events.last?.id == 999)
        #expect(ring.statistics.lost == kept)
    }

    @Test("8 threads x 100k events: nothing lost or torn when capacity allows")
    func manyThreads() throws {
        let threads = 8
        let perThread = 100_000
        // A thread's last block may be partly unused: one block of slack per
        // thread (256 events: this ring is large enough for 256-event blocks).
        let ring = try #require(TraceRing(capacity: threads * perThread + threads * 256))
        let threadIDs = Shared<[UInt32]>([])
        runThreads(threads) { thread in
            threadIDs.withLock { $0.append(lp_thread_id()) }
            for i in 0..<perThread {
                // id and argument carry the same value, so a torn record shows.
                let value = UInt64(thread) << 32 | UInt64(i)
                ring.record(kind: UInt8(LP_KIND_EVENT), name: "stress", id: value, argument: Int64(value))
            }
        }
        let events = ring.snapshot()
        #expect(ring.statistics.lost == 0)
        #expect(events.count == threads * perThread)

        var seen = [[Bool]](repeating: [Bool](repeating: false, count: perThread), count: threads)
        var lastTimestamp = [UInt64](repeating: 0, count: threads)
        var tidOfThread = [UInt32?](repeating: nil, count: threads)
        var torn = 0
        var duplicates = 0
        var outOfOrder = 0
        // Slot order within one thread's blocks is recording order.
        for event in events {
            guard event.argument == Int64(bitPattern: event.id), event.kind == UInt8(LP_KIND_EVENT) else {
                torn += 1
                continue
            }
            let thread = Int(event.id >> 32)
            let i = Int(event.id & 0xffff_ffff)
            if seen[thread][i] { duplicates += 1 }
            seen[thread][i] = true
            if event.timestamp < lastTimestamp[thread] { outOfOrder += 1 }
            lastTimestamp[thread] = event.timestamp
            if tidOfThread[thread] == nil { tidOfThread[thread] = event.threadID }
            if tidOfThread[thread] != event.threadID { torn += 1 }
        }
        #expect(torn == 0)
        #expect(duplicates == 0)
        #expect(outOfOrder == 0)
        #expect(seen.allSatisfy { $0.allSatisfy { $0 } })
        #expect(Set(tidOfThread.compactMap { $0 }) == Set(threadIDs.withLock { $0 }))
    }

    @Test("many threads overflowing a drop-newest ring: lost count is exact")
    func concurrentOverflowCount() throws {
        let ring = try #require(TraceRing(capacity: 10_000))
        let threads = 4
        let perThread = 20_000
        runThreads(threads) { _ in
            for _ in 0..<perThread { ring.record(kind: UInt8(LP_KIND_EVENT), name: "full") }
        }
        let kept = ring.snapshot().count
        #expect(kept <= ring.statistics.capacity)
        #expect(kept + ring.statistics.lost == threads * perThread)
    }

    @Test("a snapshot taken while threads record never sees a torn record")
    func snapshotDuringWrites() throws {
        let ring = try #require(TraceRing(capacity: 1 << 16, policy: .overwriteOldest))
        let stop = Atomic<Bool>(false)
        let snapshots = Shared<[[RecordedEvent]]>([])
        runThreads(3) { thread in
            if thread == 0 {
                for _ in 0..<50 { snapshots.withLock { $0.append(ring.snapshot()) } }
                stop.store(true, ordering: .releasing)
            } else {
                var i: UInt64 = 0
                while !stop.load(ordering: .acquiring) {
                    let value = UInt64(thread) << 32 | i
                    ring.record(kind: UInt8(LP_KIND_BEGIN), name: "race", id: value, argument: Int64(value))
                    i += 1
                }
            }
        }
        let all = snapshots.withLock { $0.joined() }
        #expect(all.allSatisfy { $0.argument == Int64(bitPattern: $0.id) && $0.kind == UInt8(LP_KIND_BEGIN) })
    }

    @Test("signpost ids are unique across threads and never zero")
    func signpostIDs() {
        let ids = Shared<Set<UInt64>>([])
        runThreads(8) { _ in
            var local: [UInt64] = []
            for _ in 0..<10_000 { local.append(SignpostID.make().rawValue) }
            ids.withLock { $0.formUnion(local) }
        }
        let all = ids.withLock { $0 }
        #expect(all.count == 80_000)
        #expect(!all.contains(0))
    }

    @Test("dynamic names are interned once")
    func interning() {
        let name = "dynamic-name-\(UInt64.random(in: 0...UInt64.max))"
        let first = Names.intern(name)
        let again = Names.intern(String(name))
        #expect(first == again)
        #expect(first & LP_NAME_INTERNED != 0)
        #expect(Names.text(of: first) == name)
        #expect(Names.text(of: Names.encode("static name")) == "static name")
    }
}
