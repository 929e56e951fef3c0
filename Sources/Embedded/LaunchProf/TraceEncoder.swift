import CLaunchProfSupport
import LaunchProfFormat

#if canImport(Glibc)
import Glibc
#endif

/// Turns a ring and the launch state into trace-file bytes.
enum TraceEncoder {
    static func encode(ring: TraceRing) -> [UInt8] {
        let writtenAt = lp_now_ns()
        let events = ring.snapshot().sorted { ($0.timestamp, $0.kind) < ($1.timestamp, $1.kind) }
        let statistics = ring.statistics

        // String table: resolve each distinct encoded name once.
        var strings: [String] = []
        var stringIndex: [String: UInt32] = [:]
        func index(of text: String) -> UInt32 {
            if let found = stringIndex[text] { return found }
            strings.append(text)
            stringIndex[text] = UInt32(strings.count - 1)
            return UInt32(strings.count - 1)
        }
        var nameIndex: [UInt64: UInt32] = [:]
        let eventNames = events.map { event -> UInt32 in
            if let found = nameIndex[event.name] { return found }
            let found = index(of: Names.text(of: event.name))
            nameIndex[event.name] = found
            return found
        }
        let categories = Registry.shared.categories.map { (index(of: $0.subsystem), index(of: $0.category)) }
        let threads = threadNames().map { ($0.tid, index(of: $0.name)) }

        var out = ByteWriter()
        out.bytes.append(contentsOf: TraceFormat.magic)
        out.u32(TraceFormat.version)
        out.u32(TraceFormat.headerSize)
        out.u32(UInt32(truncatingIfNeeded: getpid()))
        out.u32(statistics.policy.cValue)
        out.u64(lp_spawn_ns())
        out.u64(lp_process_entry_ns())
        out.u64(LaunchTracker.mainNanoseconds ?? 0)
        out.u64(LaunchTracker.launchCompleteNanoseconds ?? 0)
        out.u64(writtenAt)
        out.u64(UInt64(statistics.capacity))
        out.u64(UInt64(events.count))
        out.u64(UInt64(statistics.lost))
        out.u64(0)  // reserved
        precondition(out.bytes.count == Int(TraceFormat.headerSize))

        out.section(.strings) { section in
            section.u32(UInt32(strings.count))
            for string in strings {
                let utf8 = Array(string.utf8)
                section.u32(UInt32(utf8.count))
                section.bytes.append(contentsOf: utf8)
            }
        }
        out.section(.categories) { section in
            section.u32(UInt32(categories.count))
            for (subsystem, category) in categories {
                section.u32(subsystem)
                section.u32(category)
            }
        }
        out.section(.threads) { section in
            section.u32(UInt32(threads.count))
            for (tid, name) in threads {
                section.u32(tid)
                section.u32(name)
            }
        }
        out.section(.events) { section in
            section.u64(UInt64(events.count))
            for (event, name) in zip(events, eventNames) {
                section.u64(event.timestamp)
                section.u64(event.id)
                section.i64(event.argument ?? event.threadCPU.map { Int64(bitPattern: $0) } ?? 0)
                section.u32(name)
                section.u32(event.threadID)
                section.u8(event.kind)
                section.u8(
                    event.argument != nil ? UInt8(LP_FLAG_HAS_ARG) : event.threadCPU != nil ? UInt8(LP_FLAG_THREAD_CPU) : 0)
                section.u16(event.category)
                section.u32(0)
            }
        }
        // Samples and modules (sections 5 and 6), encoded by the C sampler.
        out.bytes.append(contentsOf: SamplerSections.encode())
        let sum = TraceFormat.checksum(out.bytes)
        out.section(.checksum) { $0.u64(sum) }
        return out.bytes
    }

    private static func threadNames() -> [(tid: UInt32, name: String)] {
        let capacity = 1024
        let buffer = UnsafeMutablePointer<lp_thread_name_t>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        let count = lp_thread_names(buffer, capacity)
        var seen = Set<UInt32>()
        var result: [(UInt32, String)] = []
        for i in 0..<count where seen.insert(buffer[i].tid).inserted {
            let name = withUnsafeBytes(of: buffer[i].name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            result.append((buffer[i].tid, name))
        }
        return result
    }
}
