import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// The Chrome/Perfetto export shows an interval's time on and off CPU (its
/// thread's CPU time, trace format flag bit 1) as arguments of its slice.
@Suite struct ChromeExportCPUTests {
    typealias Event = TraceFileBuilder.Event

    private func slices(_ events: [Event]) throws -> [String: [String: Any]] {
        var builder = TraceFileBuilder()
        builder.events = events
        builder.threadNames = [(1, "main"), (2, "pool")]
        let trace = try TraceReader.parse(Data(builder.bytes()), path: "/tmp/cpu.lptrace")
        let text = ChromeTraceExporter().export(trace)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        var byName: [String: [String: Any]] = [:]
        for event in events {
            guard let name = event["name"] as? String, let arguments = event["args"] as? [String: Any] else { continue }
            if byName[name] == nil { byName[name] = arguments }
        }
        return byName
    }

    @Test("on_cpu_us and off_cpu_us on a slice whose thread CPU time is known, none where it is not")
    func cpuArguments() throws {
        let found = try slices([
            Event(timestamp: 1_000, kind: .intervalBegin, name: "parse", id: 1, threadCPU: 10_000),
            Event(timestamp: 2_001_000, kind: .intervalEnd, name: "parse", id: 1, threadCPU: 1_510_250),
            Event(timestamp: 3_000_000, kind: .intervalBegin, name: "hop", id: 2, threadID: 1, threadCPU: 0),
            Event(timestamp: 4_000_000, kind: .intervalEnd, name: "hop", id: 2, threadID: 2, threadCPU: 0),
        ])
        let parse = try #require(found["parse"])
        #expect(parse["on_cpu_us"] as? Double == 1500.25, "\(parse)")
        #expect(parse["off_cpu_us"] as? Double == 499.75, "\(parse)")
        let hop = try #require(found["hop"], "\(found.keys)")
        #expect(hop["on_cpu_us"] == nil && hop["off_cpu_us"] == nil, "unknown across threads: \(hop)")
    }
}
