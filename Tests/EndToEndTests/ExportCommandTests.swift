import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

/// Runs the built `launchprof export` on a trace written by the built
/// `lp-sample-app`, as a user would.
@Suite struct ExportCommandTests {
    /// A trace of one run of the sample app (small, so it runs fast).
    static func sampleTrace() throws -> String {
        let trace = Products.temporaryPath("sample.lptrace")
        let result = try CommandRun.run(
            try Products.path("lp-sample-app"), ["--words", "2000", "--workers", "2"],
            environment: ["LAUNCHPROF_TRACE": trace])
        try #require(result.status == 0, "lp-sample-app failed: \(result.standardError)")
        return trace
    }

    @Test func chromeExportHoldsTheSampleMilestonesInOrderAndItsThreads() throws {
        let trace = try Self.sampleTrace()
        defer { unlink(trace) }
        let result = try CommandRun.run(try Products.path("launchprof"), ["export", trace, "--format", "chrome"])
        #expect(result.status == 0, "\(result.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])

        let processInstants = events.filter { $0["ph"] as? String == "i" && $0["s"] as? String == "p" }
        let order = processInstants.compactMap { $0["name"] as? String }
            .filter { ["config loaded", "index ready", "workers warm", "launch complete"].contains($0) }
        #expect(order == ["config loaded", "index ready", "workers warm", "launch complete"])
        let times = processInstants.filter { order.contains($0["name"] as? String ?? "") }.compactMap { $0["ts"] as? Double }
        #expect(times == times.sorted())

        let threadNames = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(threadNames.contains("lp-worker-1"))
        #expect(threadNames.contains("lp-worker-2"))

        let warm = events.filter { $0["name"] as? String == "warm cache" }
        #expect(warm.count == 2)
        #expect(warm.allSatisfy { $0["ph"] as? String == "X" && $0["cat"] as? String == "dev.launchprof.sample/launch" })
        #expect(Set(warm.compactMap { $0["tid"] as? Int }).count == 2)
        let other = try #require(document["otherData"] as? [String: Any])
        #expect(other["lost_events"] as? Int == 0)
    }

    @Test func textExportToAFile() throws {
        let trace = try Self.sampleTrace()
        let output = Products.temporaryPath("timeline.txt")
        defer {
            unlink(trace)
            unlink(output)
        }
        let result = try CommandRun.run(
            try Products.path("launchprof"), ["export", trace, "--format", "text", "--output", output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("workers warm"))
        #expect(text.contains("lp-worker-1"))
        #expect(text.contains("launch complete"))
        // No temporary file left beside the output.
        let siblings = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        #expect(!siblings.contains { $0.hasPrefix((output as NSString).lastPathComponent + ".tmp") })
    }

    @Test func badTraceFileExitsWithStatus2AndNamesIt() throws {
        let path = Products.temporaryPath("not-a-trace.lptrace")
        defer { unlink(path) }
        try Data("hello, world\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try CommandRun.run(try Products.path("launchprof"), ["export", path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("'\(path)' is not a launchprof trace"))
        #expect(result.standardOutput.isEmpty)

        let missing = try CommandRun.run(try Products.path("launchprof"), ["export", "/nonexistent/x.lptrace"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read trace '/nonexistent/x.lptrace': No such file or directory"))
    }

    @Test func truncatedTraceExitsWithStatus2AndLeavesNoOutput() throws {
        let trace = try Self.sampleTrace()
        let output = Products.temporaryPath("out.json")
        defer {
            unlink(trace)
            unlink(output)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: trace))
        let result = try CommandRun.run(try Products.path("launchprof"), ["export", trace, "--output", output])
        #expect(result.status == 2)
        #expect(result.standardError.contains("is truncated"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

/// `launchprof export` of hostile traces: names full of terminal escapes,
/// a module list naming a FIFO, a device and a crafted ELF.
@Suite(.timeLimit(.minutes(2))) struct ExportHostileTraceTests {
    static func write(_ builder: TraceFileBuilder, _ name: String) throws -> String {
        let path = Products.temporaryPath(name)
        try Data(builder.bytes()).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func textExportEscapesControlCharactersInNames() throws {
        var builder = TraceFileBuilder()
        builder.threadNames = [(1, "t\u{1B}]0;title\u{7}")]
        builder.events = [.init(timestamp: 5, kind: .milestone, name: "m\u{1B}[2J\u{0}\u{9B}1m\nfake line")]
        let trace = try Self.write(builder, "hostile-names.lptrace")
        defer { unlink(trace) }
        let result = try CommandRun.run(try Products.path("launchprof"), ["export", "--format", "text", trace])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) })
        #expect(result.standardOutput.contains(#"m\e[2J\x00\u{9b}1m\nfake line"#))
        #expect(result.standardOutput.contains(#"1 t\e]0;title\x07"#))
    }

    /// The Chrome export symbolizes the samples through the module list:
    /// nothing there may block, trap, or end the export.
    @Test func chromeExportSkipsModulesThatAreNotReadableELFFiles() throws {
        let fifo = Products.temporaryPath("module.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        var crafted = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/bin/true")))
        for index in 0..<8 { crafted[0x28 + index] = 0xFF }  // e_shoff near 2^64
        let craftedPath = Products.temporaryPath("crafted.so")
        try Data(crafted).write(to: URL(fileURLWithPath: craftedPath))
        defer { unlink(craftedPath) }
        let modules = [fifo, "/dev/zero", craftedPath]
        var builder = TraceFileBuilder()
        builder.events = [.init(timestamp: 10, kind: .milestone, name: "main")]
        builder.extraSections = TraceFileBuilder.samplingSections(
            frames: modules.indices.map { 0x10_0000 * UInt64($0 + 1) + 0x10 }, modules: modules)
        let trace = try Self.write(builder, "hostile-modules.lptrace")
        defer { unlink(trace) }
        let result = try CommandRun.run(
            try Products.path("launchprof"), ["export", "--format", "chrome", trace], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        #expect(events.contains { ($0["cat"] as? String) == "launchprof/samples" })
    }
}
