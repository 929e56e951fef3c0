import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof run --counts` and `--budget` on a counted metric, end to end.
@Suite("launchprof run --counts")
struct RunCountsTests {
    @Test("callgrind: the same count every run, a --budget on it checked, and the terminal and JSON say what was counted")
    func callgrindBudget() throws {
        guard access("/usr/bin/valgrind", X_OK) == 0 else { return }
        let hello = try Products.path("lp-hello-c")
        let json = Products.temporaryPath("counts.json")
        defer { unlink(json) }
        let result = try launchprof([
            "run", "-r", "3", "-w", "0", "--counts", "callgrind", "--budget", "instructions<=1k", "-n", "hello",
            "--export-json", json, "--", hello,
        ])
        #expect(result.status == 1, "the budget is exceeded: \(result.standardError)")
        #expect(result.standardOutput.contains("hello (warm) [callgrind]: instructions "), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("not measured: cycles"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("FAIL  hello (warm) instructions p50 <= 1000"), "\(result.standardOutput)")
        let document = try JSONDecoder().decode(ResultsDocument.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        let counts = document.results[0].runs.compactMap { $0.counts?.instructions }
        #expect(counts.count == 3 && Set(counts).count == 1, "a static C program counts the same every time: \(counts)")
        #expect(document.results[0].counters?.source == .callgrind)
    }

    @Test("perf: software counters everywhere; a hardware counter the machine lacks is named with its reason")
    func perfReport() throws {
        let json = Products.temporaryPath("perf.json")
        defer { unlink(json) }
        let result = try launchprof(["run", "-r", "3", "-w", "0", "--counts", "perf", "--export-json", json, "--", "/bin/true"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("[perf_event_open]: "), "\(result.standardOutput)")
        let document = try JSONDecoder().decode(ResultsDocument.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        let report = try #require(document.results[0].counters)
        #expect(report.measured.contains("page_faults"))
        #expect(document.results[0].summaries["page_faults"] != nil)
        if !report.measured.contains("instructions") {
            #expect(result.standardOutput.contains("not measured: instructions"), "\(result.standardOutput)")
        }
    }

    @Test("--budget names a metric and a limit; anything else is refused with the metrics it accepts")
    func badBudget() throws {
        let result = try launchprof(["run", "-r", "1", "--budget", "instr<=4", "--", "/bin/true"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("'instr' is not a metric"), "\(result.standardError)")
    }
}

extension RunCountsTests {
    private func launchprof(_ arguments: [String]) throws -> CommandRun {
        try CommandRun.run(try Products.path("launchprof"), arguments, timeout: 120)
    }
}
