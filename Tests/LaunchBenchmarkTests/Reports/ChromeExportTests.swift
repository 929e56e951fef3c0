import Foundation
import Glibc
import LaunchBenchmark
import LaunchProf
import Testing

/// Writer -> reader -> Chrome JSON, parsed back with JSONSerialization and
/// checked field by field.
@Suite struct ChromeExportTests {
    typealias JSONObject = [String: Any]

    /// The export of a trace as text and as parsed JSON.
    private func export(_ trace: Trace) throws -> (text: String, document: JSONObject, events: [JSONObject]) {
        let text = ChromeTraceExporter().export(trace)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? JSONObject)
        let events = try #require(document["traceEvents"] as? [JSONObject])
        return (text, document, events)
    }

    /// µs since the trace's origin with 3 decimals, computed independently of
    /// the exporter.
    private func micros(_ timestamp: UInt64, _ trace: Trace) -> String {
        let delta = timestamp - trace.timeOrigin.nanoseconds
        return String(format: "%llu.%03llu", delta / 1000, delta % 1000)
    }

    @Test func roundTripKeepsEveryField() throws {
        let subsystem = TraceTestSupport.uniqueSubsystem("chrome")
        let signposter = Signposter(subsystem: subsystem, category: "roundtrip")
        let worker = PinnedThread(name: "lp-test-chrome")
        defer { worker.finish() }
        let milestone = "milestone \(subsystem)"
        let bytes = try TraceTestSupport.recordTrace {
            worker.run {
                let outer = signposter.beginInterval("outer", value: 7)
                signposter.emitEvent("tick", value: 42)
                let inner = signposter.beginInterval("inner")
                usleep(100)
                signposter.endInterval("inner", inner)
                signposter.endInterval("outer", outer, value: 9)
            }
            LaunchTracker.recordMilestone(dynamicName: milestone)
        }
        let trace = try TraceReader.parse(bytes, path: "/tmp/round trip \"quoted\".lptrace")
        let (text, document, events) = try export(trace)
        let pid = Int(getpid())
        let tid = Int(worker.tid)
        let category = "\(subsystem)/roundtrip"
        let mine = TraceTestSupport.events(of: trace, subsystem: subsystem)
        try #require(mine.count == 5)

        #expect(document["displayTimeUnit"] as? String == "ns")

        // Slices: X with ts/dur exact to the nanosecond.
        let outer = try #require(events.first { $0["name"] as? String == "outer" && $0["cat"] as? String == category })
        #expect(outer["ph"] as? String == "X")
        #expect(outer["pid"] as? Int == pid)
        #expect(outer["tid"] as? Int == tid)
        let outerBegin = mine[0]
        let outerEnd = mine[4]
        #expect(text.contains("\"ts\":\(micros(outerBegin.timestamp, trace)),\"dur\":"))
        #expect(outer["ts"] as? Double == Double(micros(outerBegin.timestamp, trace)))
        let expectedDuration = outerEnd.timestamp - outerBegin.timestamp
        #expect(outer["dur"] as? Double == Double(String(format: "%llu.%03llu", expectedDuration / 1000, expectedDuration % 1000)))
        let outerArgs = try #require(outer["args"] as? JSONObject)
        #expect(outerArgs["value"] as? Int == 7)
        #expect(outerArgs["end_value"] as? Int == 9)
        #expect(outerArgs["signpost_id"] as? String == "0x" + String(outerBegin.id, radix: 16))
        let inner = try #require(events.first { $0["name"] as? String == "inner" && $0["cat"] as? String == category })
        #expect(inner["ph"] as? String == "X")
        #expect((inner["ts"] as? Double ?? 0) >= (outer["ts"] as? Double ?? .infinity))
        #expect((inner["dur"] as? Double ?? .infinity) <= (outer["dur"] as? Double ?? 0))

        // Plain event: thread-scoped instant with its argument.
        let tick = try #require(events.first { $0["name"] as? String == "tick" && $0["cat"] as? String == category })
        #expect(tick["ph"] as? String == "i")
        #expect(tick["s"] as? String == "t")
        #expect(tick["tid"] as? Int == tid)
        #expect((tick["args"] as? JSONObject)?["value"] as? Int == 42)
        #expect(tick["ts"] as? Double == Double(micros(mine[1].timestamp, trace)))

        // Milestone: process-scoped instant in the launch category.
        let mark = try #require(events.first { $0["name"] as? String == milestone })
        #expect(mark["ph"] as? String == "i")
        #expect(mark["s"] as? String == "p")
        #expect(mark["cat"] as? String == "launchprof/launch")
        #expect(mark["pid"] as? Int == pid)

        // Synthetic process entry at its header time.
        let entry = try #require(events.first { $0["name"] as? String == "process entry" })
        #expect(entry["ts"] as? Double == Double(micros(trace.header.processEntryNanoseconds!, trace)))

        // Metadata: real tids, the pid, the names.
        let threadNames = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
        let workerName = threadNames.first { $0["tid"] as? Int == tid }
        #expect((workerName?["args"] as? JSONObject)?["name"] as? String == "lp-test-chrome")
        #expect(workerName?["pid"] as? Int == pid)
        let process = events.first { $0["ph"] as? String == "M" && $0["name"] as? String == "process_name" }
        #expect(process?["pid"] as? Int == pid)
        #expect(process?["tid"] as? Int == pid)

        // otherData: what a reader needs to judge the trace.
        let other = try #require(document["otherData"] as? JSONObject)
        #expect(other["trace_format_version"] as? Int == 1)
        #expect(other["lost_events"] as? Int == Int(trace.header.lostEvents))
        #expect(other["capacity"] as? Int == Int(trace.header.capacity))
        #expect(other["policy"] as? String == trace.header.policy.description)
        #expect(other["pid"] as? Int == pid)
        #expect(other["process_entry_ns"] as? String == String(trace.header.processEntryNanoseconds!))
        #expect(other["trace_path"] as? String == "/tmp/round trip \"quoted\".lptrace")
        #expect(other["time_origin"] as? String == trace.timeOrigin.label)
    }

    @Test func everyTimestampHasExactlyThreeDecimals() throws {
        let trace = try TraceReader.parse(try TraceTestSupport.smallRealTrace(), path: "p")
        let text = ChromeTraceExporter().export(trace)
        let all = try Regex(#""(ts|dur)":([^,}]*)"#)
        let exact = try Regex(#"^-?[0-9]+\.[0-9]{3}$"#)
        let values = text.matches(of: all).map { String($0.output[2].substring!) }
        #expect(values.count >= 4)
        for value in values { #expect(value.wholeMatch(of: exact) != nil, "\(value)") }
    }

    @Test func nestedSlicesAreXAndOverlapsAndHandoffsAreAsyncPairs() throws {
        let subsystem = TraceTestSupport.uniqueSubsystem("phases")
        let signposter = Signposter(subsystem: subsystem, category: "threads")
        let first = PinnedThread(name: "lp-test-one")
        let second = PinnedThread(name: "lp-test-two")
        defer {
            first.finish()
            second.finish()
        }
        let bytes = try TraceTestSupport.recordTrace {
            recordNestedOverlappingAndHandoff(signposter, first, second)
        }
        let trace = try TraceReader.parse(bytes, path: "p")
        let category = "\(subsystem)/threads"
        let events = try export(trace).events.filter { $0["cat"] as? String == category }
        func phases(_ name: String) -> [String] {
            events.filter { $0["name"] as? String == name }.compactMap { $0["ph"] as? String }
        }
        #expect(phases("outer") == ["X"])
        #expect(phases("inner") == ["X"])
        #expect(phases("overlap") == ["b", "e"])
        #expect(phases("handoff") == ["b", "e"])

        let handoff = events.filter { $0["name"] as? String == "handoff" }
        let begin = try #require(handoff.first)
        let end = try #require(handoff.last)
        #expect(begin["tid"] as? Int == Int(first.tid))
        #expect(end["tid"] as? Int == Int(second.tid))
        let id = try #require(begin["id"] as? String)
        #expect(id.hasPrefix("0x"))
        #expect(end["id"] as? String == id)
        #expect(UInt64(id.dropFirst(2), radix: 16) == trace.events.first { $0.name == "handoff" && $0.category.subsystem == subsystem }?.id)
        #expect((end["ts"] as? Double ?? 0) > (begin["ts"] as? Double ?? .infinity))

        let overlap = events.filter { $0["name"] as? String == "overlap" }
        #expect(Set(overlap.compactMap { $0["tid"] as? Int }) == [Int(first.tid)])
        #expect(overlap.first?["id"] as? String == overlap.last?["id"] as? String)

        let open = try #require(events.first { $0["name"] as? String == "left open" })
        #expect(open["ph"] as? String == "X")
        #expect((open["args"] as? JSONObject)?["unfinished"] as? Bool == true)
        let orphan = try #require(events.first { ($0["name"] as? String)?.hasPrefix("orphan end") == true })
        #expect(orphan["ph"] as? String == "i")
        #expect((orphan["args"] as? JSONObject)?["unmatched_end"] as? Bool == true)
    }

    @Test func namesAreEscapedAsJSON() throws {
        let subsystem = TraceTestSupport.uniqueSubsystem("escape \"sub\"")
        let signposter = Signposter(subsystem: subsystem, category: "tab\there")
        let awkward = "quote\" backslash\\ newline\n tab\t bell\u{07} nul\u{0} é 🚀 \u{2028}"
        let bytes = try TraceTestSupport.recordTrace { signposter.emitEvent(dynamicName: awkward) }
        let trace = try TraceReader.parse(bytes, path: "p")
        let events = try export(trace).events
        let found = events.first { $0["cat"] as? String == "\(subsystem)/tab\there" }
        #expect(found?["name"] as? String == awkward)
    }

    @Test func textTimelineShowsTimesThreadsAndDurations() throws {
        let subsystem = TraceTestSupport.uniqueSubsystem("text")
        let signposter = Signposter(subsystem: subsystem, category: "timeline")
        let worker = PinnedThread(name: "lp-test-text")
        defer { worker.finish() }
        let bytes = try TraceTestSupport.recordTrace {
            worker.run { signposter.withIntervalSignpost("load text") { _ = usleep(100) } }
        }
        let trace = try TraceReader.parse(bytes, path: "/tmp/t.lptrace")
        let text = TextTimelineExporter().export(trace)
        let tid = worker.tid
        #expect(text.hasPrefix("trace /tmp/t.lptrace (format 1)\npid \(getpid()), "))
        #expect(text.contains("\(trace.header.lostEvents) lost"))
        let line = try #require(text.split(separator: "\n").first { $0.contains("load text [\(subsystem)/timeline]") })
        #expect(line.contains("\(tid) lp-test-text"))
        #expect(line.contains("slice"))
        #expect(line.wholeMatch(of: try Regex(#".*\+[0-9]+\.[0-9]{3} ms .* [0-9]+\.[0-9]{3} ms$"#)) != nil)
        let entryLine = try #require(text.split(separator: "\n").first { $0.contains("process entry") })
        #expect(entryLine.contains("+0.000 ms"))
    }
}
