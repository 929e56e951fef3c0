import Glibc
import LaunchProfTestSupport
import Synchronization
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// The scheduler with a scripted executor (deterministic, as hyperfine tests
/// its scheduling with a mock), then once with real processes.
@Suite("Benchmark scheduling")
struct SpawnSchedulingTests {
    /// Records every launch and answers with a fixed time, or a scripted failure.
    final class ScriptedExecutor: RunExecutor, @unchecked Sendable {
        // @unchecked: the log is behind a Mutex; the script is immutable.
        let log = Mutex<[String]>([])
        let failAt: String?
        let interruptAt: (String, InterruptMonitor)?

        init(failAt: String? = nil, interruptAt: (String, InterruptMonitor)? = nil) {
            self.failAt = failAt
            self.interruptAt = interruptAt
        }

        func execute(_ context: RunContext) throws -> ObservedRun {
            let entry = "\(context.target.name)/\(context.mode.rawValue)/\(context.isWarmup ? "w" : "r")\(context.index)"
            log.withLock { $0.append(entry) }
            if let (at, monitor) = interruptAt, at == entry { monitor.interrupt() }
            let time: UInt64 = 1_000_000 + UInt64(context.index) * 1_000
            var run = ObservedRun(pid: 1, wallToReady: time, wallToExit: time, exit: .exited(0), usage: ResourceUsage())
            if failAt == entry { run.exit = .signaled(SIGSEGV) }
            return run
        }

        var entries: [String] { log.withLock { $0 } }
    }

    /// Counts cold preparations and reports an empty residency.
    final class CountingPreparer: ColdCachePreparer, @unchecked Sendable {
        // @unchecked: the count is behind a Mutex.
        let count = Mutex(0)
        func prepare(target: LaunchTarget) throws -> ResidencyReport? {
            count.withLock { $0 += 1 }
            return ResidencyReport(files: [.init(path: "/x", residentPages: 0, totalPages: 4)])
        }
    }

    let targets = [LaunchTarget(name: "A", arguments: ["a"]), LaunchTarget(name: "B", arguments: ["b"])]

    @Test("warm-ups first, then runs interleaved A B A B; warm-ups are not recorded")
    func interleaving() {
        let executor = ScriptedExecutor()
        let plan = BenchmarkPlan(targets: targets, warmup: 1, stopping: .fixed(3))
        let outcome = BenchmarkRunner(plan: plan, executor: executor).run()
        #expect(
            executor.entries == [
                "A/warm/w0", "B/warm/w0", "A/warm/r0", "B/warm/r0", "A/warm/r1", "B/warm/r1", "A/warm/r2", "B/warm/r2",
            ])
        #expect(outcome.results.map(\.runs.count) == [3, 3])
        #expect(outcome.results[0].runs.map(\.index) == [0, 1, 2])
        #expect(outcome.results[0].summaries["wall_to_ready"]?.median == 1_001_000)
        #expect(!outcome.interrupted && outcome.failure == nil)
    }

    @Test("modes interleave too, and every cold run (warm-ups included) is prepared")
    func modes() {
        let executor = ScriptedExecutor()
        let preparer = CountingPreparer()
        let plan = BenchmarkPlan(targets: [targets[0]], modes: [.cold, .warm], warmup: 1, stopping: .fixed(2))
        let outcome = BenchmarkRunner(plan: plan, executor: executor, coldCache: preparer).run()
        #expect(executor.entries == ["A/cold/w0", "A/warm/w0", "A/cold/r0", "A/warm/r0", "A/cold/r1", "A/warm/r1"])
        #expect(preparer.count.withLock { $0 } == 3)
        #expect(outcome.results[0].runs.allSatisfy { $0.residency?.totalPages == 4 })
        #expect(outcome.results[1].runs.allSatisfy { $0.residency == nil })
    }

    @Test("adaptive stopping stops between min and max runs")
    func adaptive() {
        let executor = ScriptedExecutor()
        let rule = StoppingRule(minRuns: 4, maxRuns: 6, minTime: .zero, targetRelativeHalfWidth: 0.5)
        let outcome = BenchmarkRunner(plan: BenchmarkPlan(targets: targets, warmup: 0, stopping: rule), executor: executor).run()
        #expect(outcome.results.allSatisfy { (4...6).contains($0.runs.count) })
    }

    @Test("the first failed run stops the benchmark and names target, mode and run")
    func failure() {
        let executor = ScriptedExecutor(failAt: "B/warm/r1")
        let outcome = BenchmarkRunner(plan: BenchmarkPlan(targets: targets, warmup: 0, stopping: .fixed(5)), executor: executor).run()
        let failure = outcome.failure
        #expect(failure?.description == "target 'B' (warm), run 2: crashed: killed by signal 11 (SIGSEGV)")
        #expect(executor.entries.last == "B/warm/r1")
        #expect(outcome.results[1].warnings.contains { $0.message.contains("benchmark stopped") })
    }

    @Test("an interrupt stops the benchmark and keeps what was measured")
    func interrupt() throws {
        let monitor = try InterruptMonitor()
        defer { monitor.stop() }
        let executor = ScriptedExecutor(interruptAt: ("A/warm/r2", monitor))
        let plan = BenchmarkPlan(targets: targets, warmup: 0, stopping: .fixed(10))
        let outcome = BenchmarkRunner(plan: plan, executor: executor, interrupt: monitor).run()
        #expect(outcome.interrupted)
        #expect(outcome.results.map(\.runs.count) == [2, 2])
        #expect(outcome.results[0].warnings.contains { $0.message.contains("interrupted") })
    }

    @Test("real processes: /bin/true and the sample app, interleaved, with progress")
    func realProcesses() throws {
        let app = try Products.path("lp-sample-app")
        let targets = [
            LaunchTarget(name: "true", arguments: ["/bin/true"]),
            LaunchTarget(name: "app", arguments: [app, "--words", "1000"], ready: .tracer),
        ]
        let seen = Mutex<[String]>([])
        let runner = BenchmarkRunner(
            plan: BenchmarkPlan(targets: targets, warmup: 1, stopping: .fixed(3)), executor: ProcessExecutor()
        ) { progress in seen.withLock { $0.append(progress.context.target.name) } }
        let outcome = runner.run()
        #expect(outcome.failure == nil)
        #expect(seen.withLock { $0 } == ["true", "app", "true", "app", "true", "app", "true", "app"])
        #expect(outcome.results[1].summaries["milestone:workers warm"] != nil)
        #expect(outcome.results.allSatisfy { $0.runs.count == 3 })
    }
}
