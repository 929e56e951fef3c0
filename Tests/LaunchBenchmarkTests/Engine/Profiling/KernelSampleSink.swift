import CLaunchProfPerf
import CLaunchProfSampler
import Foundation
import LaunchAnalysis
import LaunchProfTestSupport
import Testing

/// A sample sink (launchprof_spawn.h, `struct lp_perf_sink_header`, then
/// perf records) built record by record, as lp-spawn writes it: for tests of
/// CLaunchProfPerf that choose every byte.
struct KernelSampleSink {
    var sampleType: UInt64 = 0x1 | 0x2 | 0x4 | 0x1000 | 0x2000  // IP, TID, TIME, REGS_USER, STACK_USER
    var registerMask: UInt64 = 0xff01ff
    var stackBytes: UInt32 = 16384
    var hz: UInt32 = 1000
    var magic = Array("LPPERF1\0".utf8)
    var version: UInt32 = 2
    /// LP_PERF_SINK_* bits: closed by its spawner (the ending below) unless a test says otherwise.
    var flags: UInt32 = 2
    /// The ending: the errno of the write the sink refused, and the samples and records not written.
    var sinkError: Int32 = 0
    var unwrittenSamples: UInt64 = 0
    var unwrittenRecords: UInt64 = 0
    var clock: UInt32 = 1  // CLOCK_MONOTONIC
    /// The records, in the order written (the reader sorts them by time).
    var records: [[UInt8]] = []

    static let headerSize = 88

    var bytes: [UInt8] {
        var out = magic
        out.putU32(version)
        out.putU32(UInt32(Self.headerSize))
        out.putU64(sampleType)
        out.putU64(registerMask)
        out.putU32(stackBytes)
        out.putU32(hz)
        out.putU64(1_000_000_000 / UInt64(max(hz, 1)))
        out.putU32(2)  // CPUs
        out.putU32(clock)
        out.putU32(0)  // error
        out.putU32(flags)
        out.putU32(UInt32(bitPattern: sinkError))
        out.putU32(0)  // reserved
        out.putU64(unwrittenSamples)
        out.putU64(unwrittenRecords)
        return out + records.flatMap { $0 }
    }

    /// A record of `type`: its header, `body`, and the sample_id_all
    /// trailer (pid, tid, time) unless it is a sample.
    static func record(
        _ type: UInt32, misc: UInt16 = 0, _ body: [UInt8], pid: UInt32 = 0, tid: UInt32 = 0, time: UInt64 = 0
    )
        -> [UInt8]
    {
        var payload = body
        if type != 9 {
            payload.putU32(pid)
            payload.putU32(tid)
            payload.putU64(time)
        }
        var out: [UInt8] = []
        out.putU32(type)
        out.putU16(misc)
        out.putU16(UInt16(8 + payload.count))
        return out + payload
    }

    /// A NUL-terminated string padded to 8 bytes.
    static func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 8 != 0 { bytes.append(0) }
        return bytes
    }

    mutating func comm(pid: UInt32, tid: UInt32, _ name: String, at time: UInt64, exec: Bool = false) {
        var body: [UInt8] = []
        body.putU32(pid)
        body.putU32(tid)
        records.append(Self.record(3, misc: exec ? 0x2000 : 0, body + Self.padded(name), pid: pid, tid: tid, time: time))
    }

    mutating func fork(pid: UInt32, parent: UInt32, tid: UInt32, parentThread: UInt32, at time: UInt64) {
        var body: [UInt8] = []
        for value in [pid, parent, tid, parentThread] { body.putU32(value) }
        body.putU64(time)
        records.append(Self.record(7, body, pid: pid, tid: tid, time: time))
    }

    /// An executable MMAP2 of `path` at `address` from file offset `offset`.
    mutating func mmap(pid: UInt32, _ path: String, at address: UInt64, length: UInt64, offset: UInt64, time: UInt64) {
        var body: [UInt8] = []
        body.putU32(pid)
        body.putU32(pid)
        body.putU64(address)
        body.putU64(length)
        body.putU64(offset)
        body += [UInt8](repeating: 0, count: 24)  // device, inode (no build id)
        body.putU32(5)  // PROT_READ | PROT_EXEC
        body.putU32(2)  // MAP_PRIVATE
        records.append(Self.record(10, misc: 2, body + Self.padded(path), pid: pid, tid: pid, time: time))
    }

    /// A sample at `ip`; `registers` nil: none (ABI 0); `stack` copied, its
    /// dynamic size `dynamicSize` (the copy's size when nil).
    mutating func sample(
        pid: UInt32, tid: UInt32, at time: UInt64, ip: UInt64, registers: [UInt64]? = nil, abi: UInt64 = 2,
        stack: [UInt8] = [], dynamicSize: UInt64? = nil
    ) {
        var body: [UInt8] = []
        body.putU64(ip)
        body.putU32(pid)
        body.putU32(tid)
        body.putU64(time)
        if let registers {
            body.putU64(abi)
            for register in registers { body.putU64(register) }
        } else {
            body.putU64(0)
        }
        body.putU64(UInt64(stack.count))
        if !stack.isEmpty {
            body += stack
            body.putU64(dynamicSize ?? UInt64(stack.count))
        }
        records.append(Self.record(9, misc: 2, body))
    }

    /// What lp_perf_encode_sections makes of these bytes written to a file.
    struct Result {
        var sections: [UInt8]?
        var error: String
        var summary: lp_perf_summary_t
    }

    static func encode(
        _ bytes: [UInt8], in directory: ScratchDirectory, options: lp_perf_options_t = .init()
    )
        throws -> Result
    {
        let path = directory.file("sink-\(UUID().uuidString)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        return encode(path: path, options: options)
    }

    static func encode(path: String, options: lp_perf_options_t = .init()) -> Result {
        var options = options
        var size = 0
        var summary = lp_perf_summary_t()
        var error = [CChar](repeating: 0, count: 512)
        let bytes = lp_perf_encode_sections(path, &options, &size, &summary, &error, error.count)
        defer { free(bytes) }
        let sections = bytes.map { Array(UnsafeBufferPointer(start: $0, count: size)) }
        return Result(
            sections: sections, error: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            summary: summary)
    }

    /// The sections inside a minimal trace of `pid` (lp_sampler_trace_bytes), read back.
    static func trace(_ sections: [UInt8], pid: UInt32) throws -> Trace {
        var size = 0
        let bytes = try #require(
            sections.withUnsafeBufferPointer { lp_sampler_trace_bytes(pid, 1, 2, $0.baseAddress, $0.count, &size) })
        defer { free(bytes) }
        return try TraceReader.parse(Array(UnsafeBufferPointer(start: bytes, count: size)), path: "kernel.lptrace")
    }
}

extension [UInt8] {
    mutating func putU16(_ value: UInt16) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
    mutating func putU32(_ value: UInt32) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
    mutating func putU64(_ value: UInt64) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
}
