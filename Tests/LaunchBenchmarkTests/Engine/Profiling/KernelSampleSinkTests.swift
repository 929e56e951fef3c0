import CLaunchProfPerf
import CLaunchProfSampler
import CLaunchProfSpawn
import Foundation
import Glibc
import LaunchAnalysis
import LaunchProfTestSupport
import Testing

/// CLaunchProfPerf on sinks whose every byte the test chose: the records
/// replayed in time order (execs, forks, names, the window, the launched
/// tree), and files that are wrong in every way a sink can be, which give an
/// error naming the problem or a counted failure, never a crash.
@Suite("Kernel sample sink: replay and hostile files")
struct KernelSampleSinkTests {
    /// An executable mapping of the C library in this process (path, start,
    /// file offset) and its load bias (the start of its mapping at offset 0).
    static func libc() throws -> (path: String, start: UInt64, offset: UInt64, bias: UInt64) {
        // Read to its end: /proc files have no size for Foundation to read by.
        let data = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data()
        let maps = String(decoding: data, as: UTF8.self).split(separator: "\n")
        var bias: UInt64?
        for line in maps where line.hasSuffix("/libc.so.6") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let range = fields[0].split(separator: "-")
            let start = UInt64(range[0], radix: 16)!
            let offset = UInt64(fields[2], radix: 16)!
            if offset == 0 { bias = start }
            if fields[1].contains("x"), let bias { return (String(fields[5]), start, offset, bias) }
        }
        Issue.record("no executable mapping of libc.so.6 in /proc/self/maps")
        throw CancellationError()
    }

    /// A sink in which process `pid` exec'd "app" at `time` and mapped
    /// libc's first page a nanosecond later.
    static func launched(
        pid: UInt32, at time: UInt64, libc: (path: String, start: UInt64, offset: UInt64, bias: UInt64)
    ) -> KernelSampleSink {
        var sink = KernelSampleSink()
        sink.comm(pid: pid, tid: pid, "app", at: time, exec: true)
        sink.mmap(pid: pid, libc.path, at: libc.start, length: 0x1000, offset: libc.offset, time: time + 1)
        return sink
    }

    @Test func aReplayKeepsTheWindowsSamplesOfTheLaunchedTreeNamedAndMapped() throws {
        let directory = try ScratchDirectory()
        let libc = try Self.libc()
        let moved: UInt64 = 0x1000_0000  // the exec'd program's libc lies elsewhere
        var sink = KernelSampleSink()
        // CPU 1's records come first in the file; the reader sorts by time.
        sink.comm(pid: 100, tid: 100, "app", at: 30, exec: true)
        sink.mmap(pid: 100, libc.path, at: libc.start + moved, length: 0x1000, offset: libc.offset, time: 31)
        sink.sample(pid: 100, tid: 100, at: 40, ip: libc.start + moved + 0x20)
        sink.fork(pid: 100, parent: 100, tid: 102, parentThread: 100, at: 55)
        sink.comm(pid: 100, tid: 102, "worker", at: 56)
        sink.fork(pid: 101, parent: 100, tid: 101, parentThread: 100, at: 50)
        sink.sample(pid: 101, tid: 101, at: 60, ip: libc.start + moved + 0x30)
        sink.sample(pid: 100, tid: 102, at: 61, ip: libc.start + moved + 0x40)
        sink.sample(pid: 999, tid: 999, at: 62, ip: 0x1234)  // not of the launched tree
        sink.comm(pid: 100, tid: 102, "renamed-late", at: 450)  // after the window
        sink.sample(pid: 100, tid: 100, at: 500, ip: libc.start + moved + 0x50)  // after the window
        // CPU 0's: the wrapper before its exec.
        sink.comm(pid: 100, tid: 100, "wrapper", at: 10, exec: true)
        sink.mmap(pid: 100, libc.path, at: libc.start, length: 0x1000, offset: libc.offset, time: 11)
        sink.sample(pid: 100, tid: 100, at: 20, ip: libc.start + 0x10)

        var options = lp_perf_options_t()
        options.pid = 100
        options.to_ns = 400
        let result = try KernelSampleSink.encode(sink.bytes, in: directory, options: options)
        let sections = try #require(result.sections, "\(result.error)")
        #expect(result.summary.samples == 6)
        #expect(result.summary.kept == 4)
        #expect(result.summary.unwind_failures == 0)
        #expect(result.summary.cpus == 2 && result.summary.open_error == 0)
        let trace = try KernelSampleSink.trace(sections, pid: 100)
        let sampling = try #require(trace.sampling)
        #expect(sampling.timerMode == .kernel)
        #expect(sampling.rate == 1000)
        #expect(sampling.maxDepth == UInt32(LP_SAMPLER_DEFAULT_DEPTH))
        #expect(sampling.samples.map(\.timestamp) == [20, 40, 60, 61])
        #expect(sampling.samples.map(\.threadID) == [100, 100, 101, 102])
        #expect(sampling.samples.allSatisfy { $0.frames.count == 1 && $0.weight == 1 && !$0.unwindFailed })
        #expect(sampling.threadNames == [100: "app", 101: "app", 102: "worker"])
        #expect(sampling.stopNanoseconds == 400)
        // The last image's libc, and the wrapper's (a sample ran in it, and
        // it overlaps nothing), each with its own load bias.
        let biases = Set(sampling.modules.map(\.bias))
        #expect(sampling.modules.allSatisfy { $0.path == libc.path && !$0.buildID.isEmpty })
        #expect(biases == [libc.bias, libc.bias + moved])
        #expect(sampling.module(containing: libc.start + moved + 0x20)?.bias == libc.bias + moved)

        options.pid = 0
        let everything = try KernelSampleSink.encode(sink.bytes, in: directory, options: options)
        #expect(everything.summary.kept == 5, "pid 0 keeps every process's samples in the window")
    }

    @Test func anEarlierImagesModuleThatOverlapsTheLaunchedProgramsIsLeftOut() throws {
        let directory = try ScratchDirectory()
        let libc = try Self.libc()
        var sink = KernelSampleSink()
        sink.comm(pid: 7, tid: 7, "wrapper", at: 1, exec: true)
        sink.mmap(pid: 7, libc.path, at: libc.start + 0x800, length: 0x1000, offset: libc.offset, time: 2)
        sink.sample(pid: 7, tid: 7, at: 3, ip: libc.start + 0x900)
        sink.comm(pid: 7, tid: 7, "app", at: 4, exec: true)
        sink.mmap(pid: 7, libc.path, at: libc.start, length: 0x1000, offset: libc.offset, time: 5)
        sink.sample(pid: 7, tid: 7, at: 6, ip: libc.start + 0x10)
        var options = lp_perf_options_t()
        options.pid = 7
        let result = try KernelSampleSink.encode(sink.bytes, in: directory, options: options)
        let trace = try KernelSampleSink.trace(try #require(result.sections, "\(result.error)"), pid: 7)
        let sampling = try #require(trace.sampling)
        #expect(sampling.samples.count == 2)
        #expect(sampling.modules.map(\.bias) == [libc.bias])
    }

    /// File names are bytes; the trace's module paths are UTF-8: a module
    /// whose path is not is left out (its samples keep their addresses),
    /// and the trace still reads.
    @Test func aModuleWhosePathIsNotUTF8IsLeftOut() throws {
        let directory = try ScratchDirectory()
        let libc = try Self.libc()
        var sink = Self.launched(pid: 9, at: 1, libc: libc)
        sink.mmap(pid: 9, "/tmp/caf\u{e9}.so", at: 0x7000_0000, length: 0x1000, offset: 0, time: 3)
        var record = sink.records.removeLast()
        let at = try #require(record.firstIndex(of: 0xa9))  // é's second byte: 0xc3 0xa9 -> 0xe9 alone
        record.replaceSubrange((at - 1)...at, with: [0xe9, 0])
        sink.records.append(record)
        sink.sample(pid: 9, tid: 9, at: 4, ip: 0x7000_0010)
        let result = try KernelSampleSink.encode(sink.bytes, in: directory)
        let sections = try #require(result.sections, "\(result.error)")
        let sampling = try #require(try KernelSampleSink.trace(sections, pid: 9).sampling)
        #expect(sampling.samples.map(\.frames) == [[0x7000_0010]])
        #expect(sampling.modules.map(\.path) == [libc.path])
    }

    /// Each file is wrong in one way: the error names the file and what.
    @Test(arguments: [
        ("a truncated header", Array(KernelSampleSink().bytes.prefix(10)), "shorter than its 88-byte header"),
        ("a wrong magic", Array("NOTPERF\0".utf8) + KernelSampleSink().bytes.dropFirst(8), "not a sample sink"),
        (
            "another version",
            KernelSampleSinkTests.changed { $0.version = 9 }, "version 9"
        ),
        (
            "another clock",
            KernelSampleSinkTests.changed { $0.clock = 0 }, "clock 0"
        ),
        (
            "an unknown sample_type bit",
            KernelSampleSinkTests.changed { $0.sampleType |= 1 << 40 }, "unknown bits"
        ),
        (
            "PERF_SAMPLE_READ",
            KernelSampleSinkTests.changed { $0.sampleType |= 0x10 }, "READ, BRANCH_STACK or REGS_INTR"
        ),
        (
            "no time",
            KernelSampleSinkTests.changed { $0.sampleType &= ~0x4 }, "lacks IP, TID or TIME"
        ),
        (
            "a zero rate",
            KernelSampleSinkTests.changed { $0.hz = 0 }, "rate is 0"
        ),
        ("a record past the end", KernelSampleSinkTests.recordPastTheEnd(), "declares 4000 bytes but only 16 remain"),
        ("a record shorter than its header", KernelSampleSinkTests.tinyRecord(), "less than its 8-byte header"),
        ("a record cut in its header", KernelSampleSink().bytes + [9, 0, 0], "in the middle of a record header"),
        ("an absurd register count", KernelSampleSinkTests.absurdRegisters(), "runs past its end in its registers"),
        ("an unknown register ABI", KernelSampleSinkTests.registerABI(7), "register ABI"),
        ("a name without its NUL", KernelSampleSinkTests.unterminatedName(), "is malformed"),
        ("a stack copy past its record", KernelSampleSinkTests.stackPastTheEnd(), "its stack copy"),
    ])
    func aMalformedSinkIsAnErrorThatSaysWhat(_ what: String, _ bytes: [UInt8], _ expected: String) throws {
        let directory = try ScratchDirectory()
        let result = try KernelSampleSink.encode(bytes, in: directory)
        #expect(result.sections == nil, "\(what) was accepted")
        #expect(result.error.contains(expected), "\(what): \(result.error)")
        #expect(result.error.hasPrefix(directory.path), "\(what): the error names the file: \(result.error)")
    }

    /// A well-formed sink with one change.
    static func changed(_ change: (inout KernelSampleSink) -> Void) -> [UInt8] {
        var sink = KernelSampleSink()
        change(&sink)
        return sink.bytes
    }

    static func recordPastTheEnd() -> [UInt8] {
        var record: [UInt8] = []
        record.putU32(3)
        record.putU16(0)
        record.putU16(4000)
        record.putU64(0)
        return KernelSampleSink().bytes + record
    }

    static func tinyRecord() -> [UInt8] {
        var record: [UInt8] = []
        record.putU32(9)
        record.putU16(0)
        record.putU16(4)
        return KernelSampleSink().bytes + record
    }

    static func absurdRegisters() -> [UInt8] {
        var sink = KernelSampleSink()
        sink.registerMask = UInt64.max  // 64 registers, and the sample holds 3
        sink.sample(pid: 1, tid: 1, at: 1, ip: 1, registers: [1, 2, 3])
        return sink.bytes
    }

    static func registerABI(_ abi: UInt64) -> [UInt8] {
        var sink = KernelSampleSink()
        sink.sample(pid: 1, tid: 1, at: 1, ip: 1, registers: Array(repeating: 0, count: 17), abi: abi)
        return sink.bytes
    }

    static func unterminatedName() -> [UInt8] {
        var body: [UInt8] = []
        body.putU32(1)
        body.putU32(1)
        body += Array("12345678".utf8)  // no NUL before the trailer
        return KernelSampleSink().bytes + KernelSampleSink.record(3, body, pid: 1, tid: 1, time: 1)
    }

    static func stackPastTheEnd() -> [UInt8] {
        var body: [UInt8] = []
        body.putU64(1)  // ip
        body.putU32(1)
        body.putU32(1)
        body.putU64(1)  // time
        body.putU64(0)  // no registers
        body.putU64(1 << 20)  // a megabyte of stack, in a record of 56 bytes
        return KernelSampleSink().bytes + KernelSampleSink.record(9, body)
    }

    @Test func aDynamicSizeAboveTheCopiedStackIsACountedFailureWithThePCAlone() throws {
        let directory = try ScratchDirectory()
        var sink = KernelSampleSink()
        sink.sample(
            pid: 5, tid: 5, at: 1, ip: 0x4000, registers: Array(repeating: 0x10, count: 17), stack: [UInt8](repeating: 0, count: 64),
            dynamicSize: 4096)
        sink.sample(pid: 5, tid: 5, at: 2, ip: 0x5000, registers: Array(repeating: 0x10, count: 17), abi: 1)  // 32-bit
        let result = try KernelSampleSink.encode(sink.bytes, in: directory)
        let sections = try #require(result.sections, "\(result.error)")
        #expect(result.summary.kept == 2)
        #expect(result.summary.unwind_failures == 2)
        let sampling = try #require(try KernelSampleSink.trace(sections, pid: 5).sampling)
        #expect(sampling.samples.map(\.frames) == [[0x4000], [0x5000]])
        #expect(sampling.samples.allSatisfy { $0.unwindFailed })
        #expect(sampling.failed == 2)
    }

    @Test func aMissingFileAndTooDeepAStackAreErrors() throws {
        let directory = try ScratchDirectory()
        let missing = KernelSampleSink.encode(path: directory.file("no-such-sink"))
        #expect(missing.sections == nil)
        #expect(missing.error.contains("cannot open the sample sink"), "\(missing.error)")
        var options = lp_perf_options_t()
        options.max_depth = 5000
        let deep = try KernelSampleSink.encode(KernelSampleSink().bytes, in: directory, options: options)
        #expect(deep.sections == nil)
        #expect(deep.error.contains("stack depth of 5000"), "\(deep.error)")
        let fifo = directory.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let pipe = KernelSampleSink.encode(path: fifo)
        #expect(pipe.error.contains("not a regular file"), "\(pipe.error)")
    }

    /// The spawner's own records: the task-clock total, less a period for
    /// each sample of the tree after the window, is what the kept samples
    /// stand for; LP_PERF_RECORD_MAPS_MISSED is reported.
    @Test func theSpawnersTotalAndMissedMappingsAreRead() throws {
        let directory = try ScratchDirectory()
        let libc = try Self.libc()
        var sink = Self.launched(pid: 100, at: 10, libc: libc)
        for time in [20, 30, 40, 500] as [UInt64] { sink.sample(pid: 100, tid: 100, at: time, ip: libc.start + 0x10) }
        // 6 periods of the sink's 1 ms counted until the stop at 600 ns.
        var total: [UInt8] = []
        total.putU32(LP_PERF_RECORD_TASK_CLOCK)
        total.putU16(0)
        total.putU16(24)
        total.putU64(6_000_000)
        total.putU64(600)
        sink.records.append(total)
        var options = lp_perf_options_t()
        options.pid = 100
        options.to_ns = 400
        let counted = try KernelSampleSink.encode(sink.bytes, in: directory, options: options)
        #expect(counted.summary.kept == 3 && counted.summary.maps_missed == 0)
        let sections = try #require(counted.sections, "\(counted.error)")
        let sampling = try #require(try KernelSampleSink.trace(sections, pid: 100).sampling)
        #expect(sampling.sampledCPUMicroseconds == 5000, "the total less the one late sample's period")

        var missed: [UInt8] = []
        missed.putU32(LP_PERF_RECORD_MAPS_MISSED)
        missed.putU16(0)
        missed.putU16(8)
        sink.records.append(missed)
        let result = try KernelSampleSink.encode(sink.bytes, in: directory, options: options)
        #expect(result.summary.maps_missed == 1)
    }

    /// Found by Fuzz/PerfSinkFuzz.c: a header longer than this version's
    /// (165 bytes) over records of which none is kept. The reader sorted no
    /// records with qsort(NULL, 0, …), undefined behaviour that UBSan stops
    /// at; now it is a sink with no samples.
    @Test func aLongHeaderOverNoRecordKeptIsASinkWithoutSamples() throws {
        let directory = try ScratchDirectory()
        let bytes: [UInt8] = [
            76, 80, 80, 69, 82, 70, 49, 0, 1, 0, 0, 0, 165, 0, 0, 0, 7, 51, 0, 0, 0, 0, 0, 0, 255, 1, 255, 0, 0, 0, 0, 0,
            0, 4, 0, 0, 160, 15, 0, 0, 144, 208, 3, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0, 3, 0,
            0, 0, 0, 32, 40, 0, 242, 60, 0, 47, 51, 0, 0, 0, 0, 0, 0, 0, 0, 12, 0, 0, 0, 255, 1, 255, 0, 0, 0, 0, 0, 0, 4,
            0, 0, 160, 15, 8, 0, 144, 208, 3, 250, 255, 255, 255, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 48, 0, 242, 44, 0, 0,
            241, 44, 0, 9, 14, 211, 255, 0, 241, 44, 0, 0, 163, 194, 146, 23, 117, 4, 0, 0, 242, 44, 0, 0, 242, 44, 0, 0,
            59, 193, 210, 23, 111, 4, 0, 0,
        ]
        let result = try KernelSampleSink.encode(bytes, in: directory)
        #expect(result.sections != nil || !result.error.isEmpty)
        #expect(result.summary.kept == 0)
    }

    /// Every prefix of a valid sink, and bytes flipped at random in it: each
    /// is read whole or refused with an error, and what is read parses.
    @Test func truncatedAndCorruptedSinksNeverCrash() throws {
        let directory = try ScratchDirectory()
        let libc = try Self.libc()
        var sink = Self.launched(pid: 3, at: 1, libc: libc)
        sink.fork(pid: 3, parent: 3, tid: 4, parentThread: 3, at: 3)
        sink.sample(
            pid: 3, tid: 4, at: 4, ip: libc.start + 8, registers: (0..<17).map { _ in libc.start + 0x100 },
            stack: [UInt8](repeating: 0x41, count: 256))
        sink.sample(pid: 3, tid: 3, at: 5, ip: libc.start + 16)
        let valid = sink.bytes
        var generator = SystemRandomNumberGenerator()
        var cases: [[UInt8]] = (0..<valid.count).map { Array(valid.prefix($0)) }
        for _ in 0..<300 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: KernelSampleSink.headerSize..<bytes.count, using: &generator)
                bytes[at] = UInt8.random(in: 0...255, using: &generator)
            }
            cases.append(bytes)
        }
        var read = 0
        for bytes in cases {
            let result = try KernelSampleSink.encode(bytes, in: directory)
            if let sections = result.sections {
                _ = try KernelSampleSink.trace(sections, pid: 3)
                read += 1
            } else {
                #expect(!result.error.isEmpty)
            }
        }
        #expect(read > 0)
    }

    /// Issue 37, item 13: a sink that reaches the reader without its ending (its spawner died)
    /// is read up to its last whole record and said to be cut.
    @Test func sinkWithoutItsEndingIsSaidToBeCut() throws {
        let directory = try ScratchDirectory()
        var sink = KernelSampleSink()
        sink.flags = 0
        sink.comm(pid: 10, tid: 10, "cut", at: 1, exec: true)
        let result = try KernelSampleSink.encode(sink.bytes, in: directory)
        #expect(result.summary.unclosed == 1)
        var closed = KernelSampleSink()
        closed.sinkError = ENOSPC
        closed.unwrittenSamples = 42
        closed.unwrittenRecords = 50
        closed.comm(pid: 10, tid: 10, "cut", at: 1, exec: true)
        let full = try KernelSampleSink.encode(closed.bytes, in: directory)
        #expect(full.summary.unclosed == 0 && full.summary.sink_error == ENOSPC && full.summary.unwritten_samples == 42)
    }

    /// Issue 37, item 15: a process 1,000 forks below the launched one is
    /// of its tree (the walk up the parents stopped at 256 hops), a process
    /// whose parents make a cycle (a hostile sink) is not, and neither hangs.
    @Test func anyDepthIsOfTheTreeAndACycleIsNot() throws {
        let directory = try ScratchDirectory()
        let libc = try Self.libc()
        var sink = Self.launched(pid: 100, at: 10, libc: libc)
        for depth in UInt32(1)...1000 {
            sink.fork(pid: 100 + depth, parent: 99 + depth, tid: 100 + depth, parentThread: 99 + depth, at: 20 + UInt64(depth))
        }
        sink.sample(pid: 1100, tid: 1100, at: 2000, ip: libc.start + 0x20)
        sink.sample(pid: 1100, tid: 1100, at: 2001, ip: libc.start + 0x28)
        // 5000 and 5001 are each other's parent.
        sink.fork(pid: 5000, parent: 5001, tid: 5000, parentThread: 5001, at: 1500)
        sink.fork(pid: 5001, parent: 5000, tid: 5001, parentThread: 5000, at: 1501)
        sink.sample(pid: 5000, tid: 5000, at: 2002, ip: libc.start + 0x20)
        var options = lp_perf_options_t()
        options.pid = 100
        let result = try KernelSampleSink.encode(sink.bytes, in: directory, options: options)
        #expect(result.sections != nil, "\(result.error)")
        #expect(result.summary.samples == 3)
        #expect(result.summary.kept == 2)
    }
}
