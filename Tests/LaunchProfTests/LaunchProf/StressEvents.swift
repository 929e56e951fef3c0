import CLaunchProfSupport
import Glibc

@testable import LaunchProf

/// Self-checking events for the ring's stress tests: every field but the
/// timestamp is derived from the writer and its sequence number, so an event
/// that mixes two writers' fields (a torn event) cannot pass as a whole one.
struct StressEvents {
    let writers: Int
    let perWriter: Int

    static let name: StaticString = "stress"
    static let kinds = [UInt8(LP_KIND_BEGIN), UInt8(LP_KIND_END), UInt8(LP_KIND_EVENT)]

    static func id(writer: Int, sequence: Int) -> UInt64 { UInt64(writer) << 32 | UInt64(sequence) }

    /// A value no other (writer, sequence) has: the id scrambled (Fibonacci hashing).
    static func argument(id: UInt64) -> Int64 { Int64(bitPattern: id &* 0x9E37_79B9_7F4A_7C15) }

    /// Records event `sequence` of `writer` into `ring`.
    static func record(_ ring: TraceRing, writer: Int, sequence: Int) {
        let id = id(writer: writer, sequence: sequence)
        ring.record(kind: kinds[sequence % 3], name: name, id: id, argument: argument(id: id), category: UInt16(writer))
    }

    /// What one snapshot holds, checked against what was recorded.
    struct Check {
        var present = 0
        /// Events whose fields do not all belong to one recorded event.
        var torn = 0
        /// Events present twice.
        var duplicates = 0
        /// Writers whose events, taken in sequence order, go back in time.
        var outOfOrder = 0
        /// Writers of which an event is present after a missing one (drop-newest keeps each writer's earliest).
        var gaps = 0
    }

    func check(_ events: [RecordedEvent]) -> Check {
        var result = Check()
        var seen = [[UInt64]](repeating: [UInt64](repeating: 0, count: (perWriter + 63) / 64), count: writers)
        var tids = [UInt32?](repeating: nil, count: writers)
        var stamps = [[(sequence: Int, timestamp: UInt64)]](repeating: [], count: writers)
        for event in events {
            let writer = Int(event.id >> 32)
            let sequence = Int(event.id & 0xffff_ffff)
            guard writer < writers, sequence < perWriter, event.argument == Self.argument(id: event.id),
                event.category == UInt16(writer), event.kind == Self.kinds[sequence % 3], event.name == Names.encode(Self.name),
                tids[writer] == nil || tids[writer] == event.threadID
            else {
                result.torn += 1
                continue
            }
            tids[writer] = event.threadID
            let (word, bit) = (sequence / 64, UInt64(1) << UInt64(sequence % 64))
            if seen[writer][word] & bit != 0 {
                result.duplicates += 1
                continue
            }
            seen[writer][word] |= bit
            stamps[writer].append((sequence, event.timestamp))
            result.present += 1
        }
        for writer in 0..<writers {
            let ordered = stamps[writer].sorted { $0.sequence < $1.sequence }
            if zip(ordered, ordered.dropFirst()).contains(where: { $0.timestamp > $1.timestamp }) { result.outOfOrder += 1 }
            if let last = ordered.last, last.sequence + 1 != ordered.count { result.gaps += 1 }
        }
        // Two writers with one thread id: one of them carries the other's tid field.
        let distinct = Set(tids.compactMap { $0 })
        result.torn += tids.compactMap { $0 }.count - distinct.count
        return result
    }
}
