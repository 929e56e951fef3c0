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

    @Test(
        "OTLP/JSON: parsed strictly by the official protobuf definitions; the launch span, its children and milestones, from the trace's own times"
    )
    func otlpExport() throws {
        let trace = try Self.sampleTrace()
        let output = Products.temporaryPath("sample.otlp.json")
        defer {
            unlink(trace)
            unlink(output)
        }
        let result = try CommandRun.run(
            try Products.path("launchprof"), ["export", trace, "--format", "otlp", "--output", output])
        #expect(result.status == 0, "\(result.standardError)")
        // opentelemetry-proto from PyPI (Scripts/install-deps.sh): json_format.Parse
        // rejects unknown fields and wrong types. OTLP/JSON writes IDs in hex (its
        // one departure from the protobuf JSON mapping, which reads bytes as
        // base64), so they are checked from the JSON text.
        let check = try CommandRun.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import json, sys
                from google.protobuf import json_format
                from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
                text = open(sys.argv[1]).read()
                request = json_format.Parse(text, ExportTraceServiceRequest())
                resource = request.resource_spans[0]
                attributes = {a.key: a.value for a in resource.resource.attributes}
                spans = resource.scope_spans[0].spans
                raw = json.loads(text)["resourceSpans"][0]["scopeSpans"][0]["spans"]
                assert all(len(s["traceId"]) == 32 and len(s["spanId"]) == 16 for s in raw), "ids are not hex of 16 and 8 bytes"
                launch = raw[0]
                assert launch["name"] == "launch" and "parentSpanId" not in launch
                children = [s for s in raw if s.get("parentSpanId") == launch["spanId"]]
                print(json.dumps({
                    "service": attributes["service.name"].string_value,
                    "pid": attributes["process.pid"].int_value,
                    "spans": len(spans),
                    "launch": [spans[0].start_time_unix_nano, spans[0].end_time_unix_nano],
                    "launchStatus": spans[0].status.code,
                    "children": sorted({s["name"] for s in children}),
                    "events": [e.name for e in spans[0].events],
                    "warm": sum(1 for s in raw if s["name"] == "warm cache"),
                    "oneTrace": len({s["traceId"] for s in raw}) == 1,
                }))
                """, output,
            ])
        try #require(check.status == 0, "python could not parse the OTLP/JSON: \(check.standardError)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any])
        #expect(parsed["service"] as? String == "lp-sample-app")
        #expect(parsed["oneTrace"] as? Bool == true)
        #expect(parsed["launchStatus"] as? Int == 1, "launch complete was recorded: status OK")
        #expect((parsed["children"] as? [String])?.contains("build index") == true, "\(parsed)")
        #expect(parsed["warm"] as? Int == 2)
        #expect(parsed["events"] as? [String] == ["process entry", "main", "config loaded", "index ready", "workers warm"])
        // The launch span lasts exactly from spawn (process entry here: no harness
        // spawned it) to launch complete, as the trace says.
        let header = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    try CommandRun.run(try Products.path("launchprof"), ["export", trace, "--format", "chrome"]).standardOutput.utf8))
                as? [String: Any])
        let other = try #require(header["otherData"] as? [String: Any])
        let spawn = try #require(UInt64(other["spawn_ns"] as? String ?? other["process_entry_ns"] as? String ?? ""))
        let complete = try #require(UInt64(other["launch_complete_ns"] as? String ?? ""))
        let launch = try #require(parsed["launch"] as? [UInt64])
        #expect(launch[1] - launch[0] == complete - spawn)
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
