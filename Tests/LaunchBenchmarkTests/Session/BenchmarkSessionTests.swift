import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Synchronization
import Testing

/// The engine as a library: what a Swift test writes to benchmark a real
/// program, hold it to budgets and compare it with a baseline (no CLI process).
@Suite("BenchmarkSession: launch benchmarks from Swift code", .serialized)
struct BenchmarkSessionTests {
    /// The sample server (ready when LaunchProf says launch complete) and the
    /// C reference (ready at exit), a few runs each.
    func session(budgets: [Budget], baseline: BaselineSource? = nil) throws -> BenchmarkSession {
        let server = try Products.path("lp-sample-server")
        let helloC = try Products.path("lp-hello-c")
        return BenchmarkSession(
            targets: [
                LaunchTarget(name: "server", arguments: [server, "--port", "0"], ready: .tracer),
                LaunchTarget(name: "hello-c", arguments: [helloC]),
            ],
            warmup: 1, stopping: .fixed(8),
            settings: BenchmarkSettings(reference: "hello-c", budgets: budgets, baseline: baseline))
    }

    @Test("the sample server benchmarked against the C reference: budgets met, the events in order, every run measured")
    func budgetsMet() async throws {
        let events = Mutex<[String]>([])
        let outcome = try await session(budgets: [
            try Budget("server", .wallToReady, "1000x hello-c"),
            try Budget("server", .maxRSS, "40MiB"),
        ]).run { event in
            let name =
                switch event {
                case .progress: "progress"
                case .measured: "measured"
                case .profiling, .profiled: "profile"
                case .note: "note"
                }
            events.withLock { $0.append(name) }
        }
        try outcome.requirePassing()
        #expect(outcome.status == .success)
        #expect(outcome.document.results.map(\.target.name) == ["server", "hello-c"])
        for result in outcome.document.results {
            #expect(result.runs.count == 8)
            #expect(result.runs.allSatisfy { $0.exit.isSuccess && ($0.wallToReady ?? 0) > 0 })
        }
        #expect(outcome.document.budgets?.count == 2)
        #expect(outcome.document.budgets?.allSatisfy(\.passed) == true)
        let seen = events.withLock { $0 }
        #expect(seen.last == "measured")
        #expect(seen.filter { $0 == "progress" }.count >= 2 * 8)
        // The same document the CLI's --export-json writes.
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try outcome.write(
            ResultsFiles(json: directory + "/results.json", junit: directory + "/junit.xml", html: directory + "/report.html"))
        #expect(try ResultsDocument.load(from: directory + "/results.json") == outcome.document)
        #expect(FileManager.default.fileExists(atPath: directory + "/report.html"))
        #expect(outcome.terminalReport().contains("PASSED: all 2 budgets met"))
    }

    @Test("a budget the server cannot meet fails with the CLI's own lines: the check, the numbers and the verdict")
    func budgetExceeded() async throws {
        let outcome = try await session(budgets: [
            try Budget("server", .wallToReady, "1.01x hello-c"),
            try Budget("server", .maxRSS, "40MiB"),
        ]).run()
        #expect(outcome.status == .gateFailed)
        let failure = #expect(throws: LaunchGateFailure.self) { try outcome.requirePassing() }
        let message = try #require(failure).description
        #expect(message.contains("FAIL  server (warm) wall_to_ready p50 <= 1.01x hello-c"), "\(message)")
        #expect(message.contains("ok    server (warm) max_rss p50 <= 40.0 MiB"), "\(message)")
        #expect(message.contains("FAILED: 1 of 2 budgets exceeded"), "\(message)")
        #expect(outcome.terminalReport().contains(message.split(separator: "\n").last.map(String.init) ?? "-"))
    }

    @Test("saved as a baseline, then compared: unchanged against itself, a regression against a baseline four times as fast")
    func baselines() async throws {
        let store = BaselineStore(directory: try temporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        var first = try session(budgets: [])
        first.settings.saveBaseline = "main"
        first.settings.baselineStore = store
        let saved = try await first.run()
        let path = try #require(saved.savedBaseline)
        #expect(path == store.path(for: "main"))
        #expect(try store.load("main") == saved.measured)

        var again = try session(budgets: [], baseline: .saved("main"))
        again.settings.baselineStore = store
        let compared = try await again.run()
        let comparison = try #require(compared.document.comparison)
        #expect(comparison.baseline == "main")
        #expect(comparison.changes.contains { $0.target == "server" && $0.metric == "wall_to_ready" })

        // The server's launches four times as fast in the baseline: a regression. Compared as
        // measured, so that load from tests running beside this one (which slows hello-c as
        // well as the server) cannot hide it; load only makes the current runs slower.
        var faster = saved.measured
        faster.results = faster.results.map { result in
            guard result.target.name == "server" else { return result }
            return BenchmarkResult(
                target: result.target, mode: result.mode,
                runs: result.runs.map { run in
                    var run = run
                    run.wallToReady = run.wallToReady.map { $0 / 4 }
                    run.wallToExit = run.wallToExit.map { $0 / 4 }
                    return run
                })
        }
        var slower = try session(budgets: [], baseline: .document(faster, name: "faster"))
        slower.settings.relativeToReference = false
        let regressed = try await slower.run()
        #expect(regressed.status == .gateFailed)
        let regressions = try #require(regressed.document.comparison).regressions
        #expect(regressions.contains { $0.target == "server" && $0.metric == "wall_to_ready" })
        let failure = #expect(throws: LaunchGateFailure.self) { try regressed.requirePassing() }
        #expect(failure?.description.contains("regressed") == true)
        #expect(failure?.description.contains("against faster") == true)
    }

    @Test("cancelling the task stops the benchmark like Ctrl-C: the run in progress is killed and what was measured is kept")
    func cancellation() async throws {
        var settings = BenchmarkSettings()
        settings.timeout = .seconds(600)
        let session = BenchmarkSession(
            targets: [LaunchTarget(name: "sleeper", arguments: ["/bin/sleep", "1000"])], warmup: 0, stopping: .fixed(3),
            settings: settings)
        let task = Task { try await session.run() }
        // Cancelled once the first run's process is up (however long a busy
        // machine takes to start it).
        let deadline = ContinuousClock.now + .seconds(120)
        while !Self.sleeperAlive(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(Self.sleeperAlive())
        let cancelled = ContinuousClock.now
        task.cancel()
        let outcome = try await task.value
        #expect(outcome.interrupted)
        #expect(outcome.status == .interrupted)
        #expect(ContinuousClock.now - cancelled < .seconds(15))
        #expect(outcome.document.results.first?.runs.isEmpty == true, "the run in progress is not counted")
        #expect(throws: LaunchGateFailure.self) { try outcome.requirePassing() }
        #expect(!Self.sleeperAlive(), "the sleeper was killed with its tree")
    }

    /// Whether a `/bin/sleep 1000` is still running.
    static func sleeperAlive() -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.contains { pid in
            guard pid.allSatisfy(\.isNumber),
                let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
            else { return false }
            return cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } == ["/bin/sleep", "1000"]
        }
    }

    @Test("a reference that names no target is refused before anything runs, with the CLI's status and message")
    func badReference() async throws {
        var session = try session(budgets: [])
        session.settings.reference = "hello-rust"
        let error = await #expect(throws: BenchmarkSessionError.self) { try await session.run() }
        #expect(error?.status == .usage)
        #expect(error?.message.contains("--reference 'hello-rust' names no target") == true)
    }

    @Test("a program that does not exist is refused before anything runs (exit status 3)")
    func missingProgram() async throws {
        let session = BenchmarkSession(targets: [LaunchTarget(name: "gone", arguments: ["/nonexistent/launchprof-test"])])
        let error = await #expect(throws: BenchmarkSessionError.self) { try await session.run() }
        #expect(error?.status == .launchFailed)
        #expect(error?.message.contains("/nonexistent/launchprof-test") == true)
    }

    func temporaryDirectory() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/launchprof-session-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(cString: try #require(made))
    }
}
