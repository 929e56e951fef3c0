import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof run --measure`: lifecycle phases of a real server after ready.
@Suite("launchprof run --measure")
struct RunMeasureTests {
    @Test("resume and shutdown of lp-sample-lifecycle: every run has both, the table shows them")
    func resumeAndShutdown() throws {
        let server = try Products.path("lp-sample-lifecycle")
        let json = Products.temporaryPath("measure.json")
        let state = Products.temporaryPath("state")
        defer {
            unlink(json)
            try? FileManager.default.removeItem(atPath: state)
        }
        let result = try launchprof([
            "run", "-r", "3", "-w", "0", "--ready", "tracer", "--measure", "resume", "--measure", "shutdown",
            "--export-json", json, "--", server, "--state-dir", state,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        for row in ["suspend (SIGTSTP to stopped)", "resume (SIGCONT to resumed)", "shutdown (SIGTERM to exit)"] {
            #expect(result.standardOutput.contains(row), "\(result.standardOutput)")
        }
        let document = try JSONDecoder().decode(ResultsDocument.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        let runs = document.results[0].runs
        #expect(runs.count == 3)
        #expect(runs.allSatisfy { $0.exit == .stoppedByHarness(signal: SIGTERM) })
        #expect(runs.allSatisfy { ($0.timeToSuspend ?? 0) > 0 && ($0.timeToResume ?? 0) > 0 && ($0.timeToShutdown ?? 0) > 0 })
        #expect(document.results[0].summaries["time_to_resume"]?.count == 3)
        #expect(document.results[0].summaries["time_to_shutdown"]?.count == 3)
        // Each run restored the previous run's state: the shutdown saved it.
        #expect(FileManager.default.fileExists(atPath: state + "/state.state"))
    }

    @Test("--measure resume on a program without LaunchProf's Lifecycle fails the run, naming why")
    func resumeWithoutLifecycle() throws {
        let server = try Products.path("lp-sample-server")
        let result = try launchprof([
            "run", "-r", "1", "-w", "0", "--ready", "tracer", "--timeout", "3", "--measure", "resume", "--", server,
        ])
        #expect(result.status == 3)
        #expect(result.standardError.contains("--measure resume:"), "\(result.standardError)")
    }

    @Test(
        "--measure needs a ready probe other than exit; an unknown phase is refused",
        arguments: [
            (["--measure", "shutdown", "/bin/true"], "--measure times a program that stays up after ready"),
            (["--ready", "tracer", "--measure", "sleep", "/bin/true"], "sleep"),
        ])
    func badUsage(arguments: [String], message: String) throws {
        let result = try launchprof(["run"] + arguments)
        #expect(result.status != 0 && result.status != 3)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}

extension RunMeasureTests {
}
