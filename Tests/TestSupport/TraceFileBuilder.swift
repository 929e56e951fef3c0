import Foundation
import LaunchBenchmark

/// Writes trace files byte for byte as LaunchProf's encoder does (format
/// version 1, docs/trace-format.md), from events a test chooses: for traces
/// too big or too odd to record through the process-wide ring.
package struct TraceFileBuilder {
    package struct Event {
        package var timestamp: UInt64
        package var kind: TraceEventKind
        package var name: String
        package var id: UInt64 = 0
        package var threadID: UInt32 = 1
        /// The value (flag bit 0), written in the argument field.
        package var value: Int64? = nil
        /// The thread's CPU time (flag bit 1), written in the argument field
        /// when there is no value.
        package var threadCPU: UInt64? = nil

        package init(
            timestamp: UInt64, kind: TraceEventKind, name: String, id: UInt64 = 0, threadID: UInt32 = 1,
            value: Int64? = nil, threadCPU: UInt64? = nil
        ) {
            self.timestamp = timestamp
            self.kind = kind
            self.name = name
            self.id = id
            self.threadID = threadID
            self.value = value
            self.threadCPU = threadCPU
        }
    }

    package var pid: UInt32 = 1
    package var events: [Event] = []
    package var threadNames: [(UInt32, String)] = [(1, "main")]
    /// Extra sections (tag, payload) written before the checksum.
    package var extraSections: [(UInt32, [UInt8])] = []

    package init() {}

    package func bytes() -> [UInt8] {
        var strings = ["app", "launch"]
        var index: [String: UInt32] = ["app": 0, "launch": 1]
        func intern(_ text: String) -> UInt32 {
            if let known = index[text] { return known }
            strings.append(text)
            index[text] = UInt32(strings.count - 1)
            return UInt32(strings.count - 1)
        }
        let names = events.map { intern($0.name) }
        let threads = threadNames.map { ($0.0, intern($0.1)) }
        var out = Bytes()
        out.raw(Array("LPTRACE\0".utf8))
        out.u32(1)  // version
        out.u32(96)  // header size
        out.u32(pid)
        out.u32(0)  // drop newest
        for _ in 0..<5 { out.u64(0) }  // spawn, entry, main, launch complete, written: unknown
        out.u64(UInt64(max(events.count, 1)))  // capacity
        out.u64(UInt64(events.count))
        out.u64(0)  // lost
        out.u64(0)  // reserved
        out.section(1) { section in
            section.u32(UInt32(strings.count))
            for string in strings {
                section.u32(UInt32(string.utf8.count))
                section.raw(Array(string.utf8))
            }
        }
        out.section(2) { section in
            section.u32(1)
            section.u32(0)
            section.u32(1)
        }
        out.section(3) { section in
            section.u32(UInt32(threads.count))
            for (tid, name) in threads {
                section.u32(tid)
                section.u32(name)
            }
        }
        out.section(4) { section in
            section.u64(UInt64(events.count))
            for (event, name) in zip(events, names) {
                section.u64(event.timestamp)
                section.u64(event.id)
                section.u64(event.value.map { UInt64(bitPattern: $0) } ?? event.threadCPU ?? 0)  // argument
                section.u32(name)
                section.u32(event.threadID)
                let flags = UInt8(event.value != nil ? 1 : 0) | UInt8(event.threadCPU != nil ? 2 : 0)
                section.raw([event.kind.code, flags, 0, 0])  // kind, flags, category 0
                section.u32(0)
            }
        }
        for (tag, payload) in extraSections { out.section(tag) { $0.raw(payload) } }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in out.bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        out.section(0xFFFF_FFFF) { $0.u64(hash) }
        return out.bytes
    }

    /// A trace of `depth` intervals on one thread, each nested in the one
    /// before: begins at 1...depth, ends in reverse order.
    package static func nested(depth: Int) -> TraceFileBuilder {
        var builder = TraceFileBuilder()
        builder.events.reserveCapacity(2 * depth)
        for level in 0..<depth {
            builder.events.append(Event(timestamp: UInt64(1_000 + level), kind: .intervalBegin, name: "level \(level)"))
        }
        for level in (0..<depth).reversed() {
            builder.events.append(
                Event(timestamp: UInt64(1_000 + 2 * depth - level), kind: .intervalEnd, name: "level \(level)"))
        }
        return builder
    }

    struct Bytes {
        var bytes: [UInt8] = []
        mutating func raw(_ more: [UInt8]) { bytes.append(contentsOf: more) }
        mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func section(_ tag: UInt32, _ build: (inout Bytes) -> Void) {
            var payload = Bytes()
            build(&payload)
            u32(tag)
            u32(0)
            u64(UInt64(payload.bytes.count))
            raw(payload.bytes)
        }
    }
}

extension TraceFileBuilder {
    /// A samples section (tag 5) with one sample of `frames` on thread 1,
    /// and a modules section (tag 6) mapping module `i` at
    /// 0x100000 * (i + 1) with bias 0x100000 * (i + 1).
    package static func samplingSections(frames: [UInt64], modules: [String]) -> [(UInt32, [UInt8])] {
        var samples = Bytes()
        samples.u32(1000)  // Hz
        samples.u32(64)  // maximum depth
        samples.u32(0)  // timer mode
        samples.u32(0)  // flags
        samples.u64(1)  // start
        samples.u64(100)  // stop
        samples.u64(1)  // sample count
        samples.u64(0)  // lost
        samples.u64(0)  // failed
        samples.u32(0)  // threads
        samples.u32(0)  // reserved
        samples.u64(50)  // time
        samples.u32(1)  // thread
        samples.raw([UInt8(frames.count), 0, 0, 0])  // depth u16, flags u16
        samples.u32(0)  // handler time
        samples.u32(1)  // weight
        for frame in frames { samples.u64(frame) }
        var table = Bytes()
        table.u32(UInt32(modules.count))
        for (index, path) in modules.enumerated() {
            let base = 0x10_0000 * UInt64(index + 1)
            table.u64(base)  // bias
            table.u64(base)  // start
            table.u64(base + 0x10_0000)  // end
            table.u32(UInt32(path.utf8.count))
            table.u32(0)  // no build id
            table.raw(Array(path.utf8))
        }
        return [(5, samples.bytes), (6, table.bytes)]
    }
}
