import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchSupport

/// `--counts`: perf_event_open counters on the launched tree, callgrind's
/// instructions, and what the results say about both.
@Suite("Counting a launch's events")
struct CountsTests {
    /// A C program that does `iterations` of work, then exits.
    static func worker(_ scratch: ScratchDirectory, name: String, iterations: Int) throws -> String {
        try scratch.compile(
            name,
            """
            #include <stdio.h>
            int main(void) {
                volatile unsigned long sum = 0;
                for (unsigned long i = 0; i < \(iterations)ul; i++) sum += i ^ (sum >> 3);
                printf("%lu\\n", sum);
                return 0;
            }
            """)
    }

    static func launch(_ target: LaunchTarget, counts: CountSource) throws -> ObservedRun {
        var request = RunRequest(target: target, timeout: .seconds(60), grace: .seconds(60))
        request.counts = counts
        return try Spawner().run(request)
    }

    @Test("perf: every counter is either measured or named unavailable with the kernel's reason")
    func perfSaysWhatItMeasured() throws {
        let run = try Self.launch(LaunchTarget(name: "true", arguments: ["/bin/true"]), counts: .perf)
        #expect(run.exit == .exited(0))
        let report = try #require(run.counterReport)
        #expect(report.source == .perf)
        let all = Set(CounterReading.metrics.map(\.key))
        #expect(Set(report.measured).union(report.unavailable.map(\.counter)) == all)
        #expect(Set(report.measured).isDisjoint(with: report.unavailable.map(\.counter)))
        for gap in report.unavailable { #expect(!gap.reason.isEmpty) }
        // Software counters exist on every Linux that has perf_event_open.
        #expect(report.measured.contains("page_faults"))
        let counts = try #require(run.counts)
        #expect((counts.pageFaults ?? 0) > 0)
        #expect((counts.taskClock ?? 0) > 0)
        #expect(report.scope.contains("exit"))
        if report.unavailable.contains(where: { $0.counter == "instructions" }) {
            #expect(counts.instructions == nil)
        }
    }

    @Test("perf: a probe other than exit stops the counters at ready, not at the stop signal")
    func perfStopsAtReady() throws {
        // Ready on its output, then CPU work it finishes despite the stop
        // signal (ignored) before it exits.
        let script = "trap '' TERM; echo ready; i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"
        var target = LaunchTarget(name: "busy-after-ready", arguments: ["/bin/sh", "-c", script])
        target.ready = .output("ready")
        let run = try Self.launch(target, counts: .perf)
        let report = try #require(run.counterReport)
        #expect(report.scope.contains("to ready"))
        let taskClock = try #require(run.counts?.taskClock)
        // The loop after ready takes far longer than the start of a shell.
        let cpu = run.usage.userCPU + run.usage.systemCPU
        #expect(taskClock < cpu)
    }

    @Test("callgrind: the same program counts the same instructions, and more work counts more")
    func callgrindIsDeterministic() throws {
        guard (try? ProgramResolver.resolve("valgrind", searchPath: "/usr/bin:/bin")) != nil else { return }
        let scratch = try ScratchDirectory()
        let small = try Self.worker(scratch, name: "small", iterations: 10_000)
        let large = try Self.worker(scratch, name: "large", iterations: 20_000)
        let first = try Self.launch(LaunchTarget(name: "small", arguments: [small]), counts: .callgrind)
        let second = try Self.launch(LaunchTarget(name: "small", arguments: [small]), counts: .callgrind)
        let more = try Self.launch(LaunchTarget(name: "large", arguments: [large]), counts: .callgrind)
        let a = try #require(first.counts?.instructions)
        #expect(second.counts?.instructions == a)
        #expect((more.counts?.instructions ?? 0) > a + 10_000)
        let report = try #require(first.counterReport)
        #expect(report.source == .callgrind)
        #expect(report.measured == ["instructions"])
        #expect(report.unavailable.contains { $0.counter == "cycles" })
        #expect(report.scope.contains("not counted: the kernel's work"))
    }

    @Test("instructions are gated at their own threshold: 1% more in every run is a regression")
    func instructionGate() throws {
        func result(_ instructions: [UInt64]) -> BenchmarkResult {
            let runs = instructions.enumerated().map { index, count in
                var run = RunMeasurement(index: index, wallToExit: 1_000_000, wallToReady: 1_000_000, exit: .exited(0))
                run.counts = LaunchCounts(instructions: count)
                return run
            }
            return BenchmarkResult(target: LaunchTarget(name: "app", arguments: ["app"]), mode: .warm, runs: runs)
        }
        let comparer = BaselineComparer()
        let before = result(Array(repeating: 1_000_000, count: 5))
        #expect(comparer.checks(for: before).contains { $0.metric == .instructions && $0.threshold == 0.005 })
        let check = try #require(comparer.checks(for: before).first { $0.metric == .instructions })
        let same = try #require(comparer.compare(check, before, before))
        #expect(same.verdict == .unchanged)
        let slower = try #require(comparer.compare(check, before, result(Array(repeating: 1_010_000, count: 5))))
        #expect(slower.verdict == .regressed)
        let noise = try #require(comparer.compare(check, before, result([1_000_100, 1_000_200, 999_900, 1_000_000, 1_000_300])))
        #expect(noise.verdict == .unchanged)
    }

    @Test("budgets read counts with a decimal suffix, and the config names how to count")
    func budgetsAndConfig() throws {
        #expect(try Quantity(parsing: "4.5M") == Quantity(value: 4_500_000, unit: .count))
        #expect(try Quantity(parsing: "12k").value == 12_000)
        let scratch = try ScratchDirectory()
        let good = scratch.file("good.yml")
        try "version: 1\ncounts: callgrind\ntargets:\n  - name: t\n    command: [/bin/true]\n".write(
            toFile: good, atomically: true, encoding: .utf8)
        #expect(try ConfigReader.read(path: good).counts == .callgrind)
        let bad = scratch.file("bad.yml")
        try "version: 1\ncounts: cachegrind\ntargets:\n  - name: t\n    command: [/bin/true]\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        #expect {
            try ConfigReader.read(path: bad)
        } throws: { error in
            "\(error)".contains("'cachegrind' is not a way to count (expected perf or callgrind)")
        }
    }
}
