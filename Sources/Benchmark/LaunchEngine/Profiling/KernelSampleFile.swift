import CLaunchProfPerf
import Glibc
import LaunchAnalysis
import LaunchProfFiles
import LaunchProfFormat

/// What the spawner copied from the kernel's sampling rings for one launch
/// (`KernelSampling`): unwound here, after the run, and added to the
/// launch's trace as its samples and modules sections, so everything that
/// reads a sampled trace reads these too.
struct KernelSampleFile {
    /// The sink the spawner wrote.
    var sink: SampleSink

    /// Unwinds the samples taken between `from` and `to` (CLOCK_MONOTONIC)
    /// and adds them to the trace at `tracePath`: to the trace the program
    /// wrote, ending at its launch complete when that is earlier (as the
    /// program's own sampler stops there), or, when it wrote none (a program
    /// without LaunchProf), to a trace of the samples alone, for `pid`,
    /// whose spawn was `from`. Returns what the user must know of samples
    /// that are missing (``losses(_:)``).
    func attach(
        toTrace tracePath: String, pid: Int32, from: UInt64, to: UInt64, program: String
    ) throws(RecordError)
        -> [String]
    {
        var written: [UInt8]?
        var end = to
        if access(tracePath, F_OK) == 0 {
            do {
                let bytes = try TraceReader.readFile(tracePath)
                if let complete = try TraceReader.header(of: bytes, path: tracePath).launchCompleteNanoseconds {
                    end = min(end, complete)
                }
                written = bytes
            } catch {
                throw .unreadable(error)
            }
        }
        var options = lp_perf_options_t()
        options.from_ns = from
        options.to_ns = end
        options.max_depth = 128
        options.pid = UInt32(bitPattern: pid)
        var summary = lp_perf_summary_t()
        var size = 0
        var message = [CChar](repeating: 0, count: 512)
        guard
            let sections = lp_perf_encode_sections_fd(
                sink.descriptor.rawValue, sink.name, &options, &size, &summary, &message, message.count)
        else {
            throw .samples(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(sections) }
        // Read whole: the sink's room (up to 256 MiB) is freed before the
        // trace is written, on a disk the sink may have filled.
        sink.descriptor.close()
        if summary.maps_missed != 0 { throw .mappingsMissed(program: program) }
        let encoded = Array(UnsafeBufferPointer(start: sections, count: size))
        if let written {
            try Self.append(encoded, to: written, trace: tracePath)
        } else {
            var total = 0
            guard let trace = lp_perf_trace_bytes(UInt32(bitPattern: pid), from, sections, size, &total) else {
                throw .samples("no memory for a trace of \(size) bytes of samples")
            }
            defer { free(trace) }
            do {
                try AtomicFile.write(Array(UnsafeBufferPointer(start: trace, count: total)), to: tracePath)
            } catch {
                throw .samples("cannot write the trace of the samples: \(error)")
            }
        }
        return Self.losses(summary)
    }

    /// What a sink that was cut says: the write the sink refused and the
    /// samples not written after it (they are in the samples section's lost
    /// count too), or that the sink was never closed.
    static func losses(_ summary: lp_perf_summary_t) -> [String] {
        if summary.unclosed != 0 {
            return [
                "the sample file was cut short (the spawner never closed it): this profile has the first \(summary.samples) samples, and how many came after is unknown"
            ]
        }
        guard summary.sink_error != 0 else { return [] }
        let reason = String(cString: strerror(summary.sink_error))
        let total = summary.samples + summary.unwritten_samples
        let share = total > 0 ? Int((Double(summary.samples) / Double(total) * 100).rounded()) : 0
        return [
            "the sample file could not be written (\(reason)): \(summary.unwritten_samples) of \(total) samples were lost, so this profile has \(summary.samples) (\(share)%); free space where the trace goes (--output-dir) and profile again"
        ]
    }

    /// `sections` put before the checksum of `bytes`, the trace at `path`,
    /// and the checksum made anew; the trace is replaced whole or not at all.
    static func append(_ sections: [UInt8], to bytes: [UInt8], trace path: String) throws(RecordError) {
        // The checksum section is the last: its 16-byte header and 8 bytes.
        let header = Int(LP_TRACE_SECTION_HEADER_SIZE)
        let checksumStart = bytes.count - header - 8
        guard checksumStart >= Int(LP_TRACE_HEADER_SIZE),
            Self.u32(bytes, at: checksumStart) == LP_TRACE_SECTION_CHECKSUM,
            Self.u64(bytes, at: checksumStart + 8) == 8,
            Self.u64(bytes, at: checksumStart + header) == lp_trace_checksum(bytes, checksumStart)
        else {
            throw .samples(
                "the trace '\(path)' does not end in its checksum: the program's trace is damaged, so its samples were not added")
        }
        var joined = Array(bytes[..<checksumStart])
        joined += sections
        let sum = lp_trace_checksum(joined, joined.count)
        withUnsafeBytes(of: LP_TRACE_SECTION_CHECKSUM.littleEndian) { joined += $0 }
        withUnsafeBytes(of: UInt32(0)) { joined += $0 }
        withUnsafeBytes(of: UInt64(8).littleEndian) { joined += $0 }
        withUnsafeBytes(of: sum.littleEndian) { joined += $0 }
        do {
            try AtomicFile.write(joined, to: path)
        } catch {
            throw .samples("cannot add the samples to the trace: \(error)")
        }
    }

    private static func u32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    private static func u64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }
}
