import Foundation
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchSupport

/// The pprof profile of a small hand-made launch, read back with `go tool
/// pprof`; and the encodings under it (protobuf varints, gzip's CRC-32 and
/// stored blocks, read back with gzip).
struct PprofExporterTests {
    /// The loader before main (×2), then main → work → mix (inlined into
    /// work) ×5 at mix.c:12 and work ×1 at work.c:30 on the main thread
    /// (tid 7 = pid); a worker in memcpy before main (×1) and in the kernel
    /// under memcpy (weight 3). No main mark: `main` on the stack says when
    /// main began (t = 5).
    static func launch() -> (SymbolizedProfile, Trace) {
        let frames: [SymbolizedProfile.Frame] = [
            .init(name: "_dl_start", module: "ld-linux-x86-64.so.2"),
            .init(name: "main", module: "app", file: "/src/main.c", line: 3),
            .init(name: "work", module: "app", file: "/src/work.c", line: 20),
            .init(name: "mix", module: "app", file: "/src/mix.c", line: 10, inlined: true),
            .init(name: "memcpy", module: "libc.so.6"),
            .init(name: "[kernel]", module: ""),
        ]
        let stacks: [SymbolizedProfile.Stack] = [
            .init(threadID: 7, timestamp: 1, weight: 1, frames: [0]),
            .init(threadID: 7, timestamp: 2, weight: 1, frames: [0]),
            .init(threadID: 8, timestamp: 3, weight: 1, frames: [4]),
            .init(threadID: 7, timestamp: 5, weight: 5, frames: [1, 2, 3], location: SourceLocation(file: "/src/mix.c", line: 12)),
            .init(threadID: 7, timestamp: 6, weight: 1, frames: [1, 2], location: SourceLocation(file: "/src/work.c", line: 30)),
            .init(threadID: 8, timestamp: 7, weight: 3, frames: [4, 5]),
        ]
        let modules = [
            TraceModule(path: "/src/app", bias: 0x5555_0000_0000, start: 0x5555_0000_1000, end: 0x5555_0000_9000, buildID: [0xAB, 0xCD]),
            TraceModule(path: "/lib/libc.so.6", bias: 0x7F00_0000_0000, start: 0x7F00_0000_0000, end: 0x7F00_0010_0000, buildID: [0x01]),
            TraceModule(
                path: "/lib64/ld-linux-x86-64.so.2", bias: 0x7F10_0000_0000, start: 0x7F10_0000_0000, end: 0x7F10_0003_0000, buildID: []),
        ]
        let sampling = TraceSampling(
            rate: 1000, maxDepth: 64, timerMode: .kernel, mainThreadOnly: false, loaderUnguarded: false, threadsHooked: true,
            startNanoseconds: 0, stopNanoseconds: 8_000_000, lost: 0, failed: 0, threadNames: [7: "app", 8: "worker"],
            samples: [], modules: modules)
        let header = TraceHeader(
            formatVersion: 1, pid: 7, policy: .dropNewest, spawnNanoseconds: nil, processEntryNanoseconds: nil, mainNanoseconds: nil,
            launchCompleteNanoseconds: nil, writtenNanoseconds: nil, capacity: 0, eventCount: 0, lostEvents: 0)
        var trace = Trace(path: "app.lptrace", header: header, strings: [], categories: [], threadNames: [:], events: [])
        trace.sampling = sampling
        let profile = SymbolizedProfile(
            frames: frames, stacks: stacks, threadNames: sampling.threadNames, sampling: sampling, runStarts: [0], warnings: [],
            name: "app")
        return (profile, trace)
    }

    @Test func goToolPprofReadsTheFunctionsLabelsAndMappings() throws {
        let scratch = try ScratchDirectory()
        let (profile, trace) = Self.launch()
        let path = scratch.file("app.pb.gz")
        let bytes = PprofExporter.gzipped(
            profile, traces: [trace], program: "app", labels: [("commit", "abc123"), ("runner", "ci 7"), ("program", "ignored")])
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let top = try PprofTool.top(path)
        #expect(top.total == 12, "the folded stacks' weight")
        #expect(top.flat(containing: "mix") == 5, "the innermost inlined call is the leaf: \(top.flat)")
        #expect(top.flat(containing: "work") == 1 && top.flat(containing: "_dl_start") == 2)
        #expect(top.flat(containing: "[kernel]") == 3 && top.flat(containing: "memcpy") == 1)

        let tags = try PprofTool.tags(path)
        #expect(tags["phase"] == [PprofExporter.preMainPhase: 3, PprofExporter.beforeReadyPhase: 9], "\(tags)")
        #expect(tags["thread"] == ["app": 8, "worker": 4], "\(tags)")
        #expect(tags["program"] == ["app": 12], "the exporter's own label wins: \(tags)")
        #expect(tags["commit"] == ["abc123": 12] && tags["runner"] == ["ci 7": 12], "\(tags)")

        let raw = try PprofTool.run(["-raw"], path)
        #expect(raw.contains("PeriodType: cpu nanoseconds") && raw.contains("Period: 1000000"), "\(raw)")
        #expect(raw.contains("samples/count cpu/nanoseconds[dflt]"), "\(raw)")
        #expect(raw.contains("mix /src/mix.c:12 s=10"), "the leaf's line, inlined into work: \(raw)")
        #expect(raw.contains("\n1: 0x555500001000/0x555500009000/0x0 /src/app abcd "), "the program's mapping first, its build id: \(raw)")
        #expect(raw.contains("/lib/libc.so.6 01 ") && raw.contains("/lib64/ld-linux-x86-64.so.2"), "\(raw)")
    }

    @Test func theMainMarkDecidesThePhaseWhenTheTraceHasOne() {
        var (profile, trace) = Self.launch()
        trace.header.mainNanoseconds = 6
        #expect(PprofExporter.mainStarts(of: profile, traces: [trace]) == [6])
        trace.header.mainNanoseconds = nil
        #expect(PprofExporter.mainStarts(of: profile, traces: [trace]) == [5], "the first main-thread stack with main")
        profile.stacks.removeAll { profile.frames[$0.frames[0]].name == "main" }
        #expect(PprofExporter.mainStarts(of: profile, traces: [trace]) == [nil], "unknown: no phase label")
    }

    @Test func protobufVarintsAndFields() {
        var writer = ProtobufWriter()
        writer.integer(1, UInt64(150))
        writer.integer(2, UInt64(0))  // a default value is left out
        writer.string(3, "")
        writer.packed(4, [3, 270])
        writer.integer(5, Int64(-1))
        #expect(
            writer.bytes == [0x08, 0x96, 0x01, 0x1A, 0x00, 0x22, 0x03, 0x03, 0x8E, 0x02] + [0x28] + Array(repeating: 0xFF, count: 9) + [
                0x01
            ])
    }

    @Test func crc32CheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    /// Empty, one block, and three blocks (the last one short), each read
    /// back whole by gzip, which checks the CRC and the length.
    @Test(arguments: [0, 1000, 2 * 65_535 + 7])
    func gzipReadsTheStoredBlocks(count: Int) throws {
        let scratch = try ScratchDirectory()
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }
        try Data(Gzip.stored(bytes)).write(to: URL(fileURLWithPath: scratch.file("data.gz")))
        let run = try CommandRun.run("/usr/bin/env", ["gzip", "-t", scratch.file("data.gz")])
        #expect(run.status == 0, "\(run.standardError)")
        let unpacked = try CommandRun.run("/usr/bin/env", ["gzip", "-dkf", scratch.file("data.gz")])
        #expect(unpacked.status == 0, "\(unpacked.standardError)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.file("data")))) == bytes)
    }
}
