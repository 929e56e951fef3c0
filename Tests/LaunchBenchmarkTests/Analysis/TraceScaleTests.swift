import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// Passes over a trace stay linear (or n log n) in its size: a 50,000-deep
/// nest of intervals took 43 s to export as text when pairing copied each
/// thread's stack for every interval.
@Suite struct TraceScaleTests {
    static let depth = 50_000

    /// Reads the nested trace back from a real file.
    static func nestedTrace() throws -> Trace {
        let path = TraceTestSupport.temporaryPath("nested.lptrace")
        defer { unlink(path) }
        try Data(TraceFileBuilder.nested(depth: depth).bytes()).write(to: URL(fileURLWithPath: path))
        return try TraceReader.read(path: path)
    }

    @Test func fiftyThousandNestedIntervalsPairAsNestedSlices() throws {
        let trace = try Self.nestedTrace()
        let clock = ContinuousClock()
        var intervals: TraceIntervals?
        let elapsed = clock.measure { intervals = trace.pairIntervals() }
        let paired = try #require(intervals)
        #expect(paired.slices.count == Self.depth)
        #expect(paired.asyncIntervals.isEmpty)
        #expect(paired.unmatchedEnds.isEmpty)
        // Outermost first; each slice inside the one before it.
        #expect(paired.slices.first?.name == "level 0")
        #expect(paired.slices.last?.name == "level \(Self.depth - 1)")
        #expect(
            zip(paired.slices, paired.slices.dropFirst()).allSatisfy {
                $0.startTimestamp < $1.startTimestamp && $1.endTimestamp < $0.endTimestamp
            })
        // A hang guard, not a benchmark: linear pairing takes well under a second.
        #expect(elapsed < .seconds(10), "pairing 50,000 nested intervals took \(elapsed)")
    }

    /// The text formats (pprof exports samples, and this trace has none).
    @Test(arguments: TraceExportFormat.allCases.filter { $0.exporter != nil })
    func fiftyThousandNestedIntervalsExport(format: TraceExportFormat) throws {
        let trace = try Self.nestedTrace()
        let exporter = try #require(format.exporter)
        let clock = ContinuousClock()
        var output = ""
        let elapsed = clock.measure { output = exporter.export(trace) }
        switch format {
        case .text:
            let slices = output.split(separator: "\n").filter { $0.contains(" slice ") }
            #expect(slices.count == Self.depth)
        case .chrome:
            let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            let events = try #require(json?["traceEvents"] as? [[String: Any]])
            #expect(events.filter { $0["ph"] as? String == "X" }.count == Self.depth)
        case .otlp:
            let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            let resource = try #require((json?["resourceSpans"] as? [[String: Any]])?.first)
            let spans = try #require((resource["scopeSpans"] as? [[String: Any]])?.first?["spans"] as? [[String: Any]])
            #expect(spans.count == Self.depth + 1, "the launch span and one per interval")
            // Each level nests in the one before it: a chain of parents 50,000 deep.
            let parents = Dictionary(
                uniqueKeysWithValues: spans.compactMap { span in
                    (span["name"] as? String).map { ($0, span["parentSpanId"] as? String) }
                })
            let ids = Dictionary(
                uniqueKeysWithValues: spans.compactMap { span in
                    (span["name"] as? String).map { ($0, span["spanId"] as? String) }
                })
            #expect(parents["level 1"] == ids["level 0"])
            #expect(parents["level \(Self.depth - 1)"] == ids["level \(Self.depth - 2)"])
        case .pprof:
            Issue.record("pprof has no text exporter")
        }
        #expect(elapsed < .seconds(20), "exporting 50,000 nested intervals as \(format) took \(elapsed)")
    }
}
