import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

/// The lifecycle as a user meets it: lp-sample-lifecycle, real signals, the
/// kernel's own view of the process in /proc.
@Suite("Lifecycle: signals")
struct LifecycleSignalTests {
    @Test("Ctrl-Z: will-suspend handlers run, state is saved, the process really stops; SIGCONT resumes it")
    func terminalStop() throws {
        let directory = try ScratchDirectory()
        // A budget far beyond what the handlers need: on a loaded machine the
        // fsync'd state save can pass the default 1 s, and the process would
        // then stop before its handlers printed (the budget has its own test).
        let sample = try SampleProcess(
            "lp-sample-lifecycle", ["--state-dir", directory.path, "--suspend-budget", "30000"], placement: .processGroup)
        try #require(sample.waitForLine(containing: "listening on") != nil)
        try #require(sample.waitForLine(containing: "launching -> ") != nil)
        // A terminal's Ctrl-Z: SIGTSTP to the foreground process group.
        sample.send(SIGTSTP, toGroup: true)
        #expect(sample.waitForProcState("T"), "the process never stopped")
        #expect(sample.linesContaining("will suspend").count == 1)
        #expect(sample.linesContaining("-> suspended (SIGTSTP)").count == 1)
        #expect(FileManager.default.fileExists(atPath: directory.path + "/state.state"), "no complete state saved")
        // Stay stopped for a while: the heartbeat must not call this unobserved.
        usleep(1_200_000)
        #expect(sample.procState == "T")
        sample.send(SIGCONT, toGroup: true)
        #expect(sample.waitForLine(containing: "resumed") != nil)
        #expect(sample.waitForLine(containing: "suspended -> background (SIGCONT)") != nil)
        #expect(sample.procState != "T")
        sample.send(SIGTERM)
        #expect(sample.waitForExit() == .signaled(SIGTERM))
        #expect(sample.linesContaining("unobserved suspension").isEmpty)
    }

    @Test("SIGTERM while a reload handler is stuck: termination starts within its budget and state is saved")
    func terminationPreemptsStuckReload() throws {
        let directory = try ScratchDirectory()
        let sample = try SampleProcess(
            "lp-sample-lifecycle",
            ["--state-dir", directory.path, "--slow-reload", "60000", "--terminate-budget", "500"], placement: .session)
        try #require(sample.waitForLine(containing: "launching -> active") != nil)
        sample.send(SIGHUP)  // no terminal: a reload, whose handler sleeps a minute
        try #require(sample.waitForLine(containing: "reloading") != nil)
        let sent = Date()
        sample.send(SIGTERM)
        let ending = sample.waitForExit(timeout: 15)
        let took = Date().timeIntervalSince(sent)
        #expect(ending == .signaled(SIGTERM))
        #expect(took < 5, "SIGTERM took \(took) s with a 0.5 s budget")
        #expect(sample.linesContaining("reloaded").isEmpty, "the reload handler cannot have finished")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/state.state"), "no state saved on termination")
    }

    @Test("SIGTSTP to a process in an orphaned group (setsid, as under systemd) is a discarded stop: no transition, no handlers")
    func discardedStop() throws {
        let directory = try ScratchDirectory()
        let sample = try SampleProcess(
            "lp-sample-lifecycle", ["--state-dir", directory.path, "--suspend-budget", "30000"], placement: .session)
        try #require(sample.waitForLine(containing: "listening on") != nil)
        try #require(sample.waitForLine(containing: "launching -> ") != nil)
        sample.send(SIGTSTP, toGroup: true)
        #expect(sample.waitForLine(containing: "stop discarded by the kernel: orphaned process group") != nil)
        usleep(300_000)
        #expect(sample.procState != "T", "the kernel stopped an orphaned group after all")
        #expect(sample.linesContaining("will suspend").isEmpty)
        #expect(sample.linesContaining("-> suspended").isEmpty)
        #expect(sample.linesContaining("resumed").isEmpty)
        #expect(sample.linesContaining("SIGCONT").isEmpty)
        sample.send(SIGTERM)
        #expect(sample.waitForExit() == .signaled(SIGTERM))
    }

    @Test("Ctrl-Z: a will-suspend handler slower than the budget does not keep the process from stopping")
    func suspendBudget() throws {
        let directory = try ScratchDirectory()
        let sample = try SampleProcess(
            "lp-sample-lifecycle",
            ["--state-dir", directory.path, "--slow-suspend", "20000", "--suspend-budget", "300"],
            placement: .processGroup)
        try #require(sample.waitForLine(containing: "listening on") != nil)
        try #require(sample.waitForLine(containing: "launching -> ") != nil)
        let start = Date()
        sample.send(SIGTSTP, toGroup: true)
        #expect(sample.waitForProcState("T", timeout: 15), "the process never stopped")
        let stoppedAfter = Date().timeIntervalSince(start)
        #expect(stoppedAfter < 15, "stopped after \(stoppedAfter) s; the handler takes 20 s, the budget is 0.3 s")
        // Written by the lifecycle thread itself: the handler thread is still
        // in the slow handler, so events reach the callbacks only after it.
        #expect(sample.linesContaining("suspended handlers still running after their budget of 0.3 seconds").count == 1)
        #expect(sample.linesContaining("will suspend").isEmpty, "the slow handler cannot have finished")
        sample.send(SIGCONT, toGroup: true)
        // The main thread waits in accept(2): sleeping again, no longer stopped.
        #expect(sample.waitForProcState("S"), "SIGCONT did not resume the process")
        sample.send(SIGKILL)
        #expect(sample.waitForExit() == .signaled(SIGKILL))
    }

    @Test("SIGSTOP and SIGCONT are found after the fact as an unobserved suspension, with its length")
    func unobservedSuspension() throws {
        let directory = try ScratchDirectory()
        let sample = try SampleProcess(
            "lp-sample-lifecycle", ["--state-dir", directory.path, "--heartbeat", "50"], placement: .session)
        try #require(sample.waitForLine(containing: "launching -> active") != nil)
        let stoppedAt = Date()
        sample.send(SIGSTOP)
        #expect(sample.waitForProcState("T"))
        usleep(1_500_000)
        sample.send(SIGCONT)
        let continuedAt = Date()
        let line = try #require(sample.waitForLine(containing: "unobserved suspension"))
        // "event: unobserved suspension: 1489–1589 ms"
        let bounds = line.split(separator: ": ").last!.dropLast(3).split(separator: "–").compactMap { Int($0) }
        try #require(bounds.count == 2, "cannot read the bounds in '\(line)'")
        let stopped = Int(continuedAt.timeIntervalSince(stoppedAt) * 1000)
        #expect(bounds[0] <= bounds[1])
        #expect(bounds[1] >= 1_450, "the stop lasted at least 1.5 s, reported at most \(bounds[1]) ms")
        #expect(bounds[0] <= stopped, "reported at least \(bounds[0]) ms for a stop of \(stopped) ms")
        #expect(sample.linesContaining("will suspend").isEmpty)
        sample.send(SIGTERM)
        #expect(sample.waitForExit() == .signaled(SIGTERM))
    }

    @Test("SIGTERM: a will-terminate handler slower than the budget does not hold up the exit")
    func terminateBudget() throws {
        let directory = try ScratchDirectory()
        let sample = try SampleProcess(
            "lp-sample-lifecycle",
            ["--state-dir", directory.path, "--slow-terminate", "20000", "--terminate-budget", "500"],
            placement: .session)
        try #require(sample.waitForLine(containing: "launching -> active") != nil)
        let start = Date()
        sample.send(SIGTERM)
        let ending = sample.waitForExit(timeout: 15)
        let elapsed = Date().timeIntervalSince(start)
        #expect(ending == .signaled(SIGTERM))
        #expect(elapsed < 15, "exited after \(elapsed) s; the handler takes 20 s, the budget is 0.5 s")
        #expect(sample.linesContaining("will terminate (SIGTERM)").count == 1)
        #expect(sample.linesContaining("slow terminate handler finished").isEmpty)
        #expect(sample.linesContaining("terminating handlers still running after their budget of 0.5 seconds").count == 1)
        // The state was still saved, but not as a clean shutdown.
        let next = try SampleProcess("lp-sample-lifecycle", ["--state-dir", directory.path], placement: .session)
        #expect(next.waitForLine(containing: "previous run: the previous run did not end cleanly") != nil)
        #expect(next.waitForLine(containing: "restored complete state") != nil)
        next.send(SIGTERM)
        #expect(next.waitForExit() == .signaled(SIGTERM))
    }

    @Test("a second SIGINT ends the process at once, without waiting for the handlers")
    func secondInterrupt() throws {
        let directory = try ScratchDirectory()
        let sample = try SampleProcess(
            "lp-sample-lifecycle",
            ["--state-dir", directory.path, "--slow-terminate", "30000", "--terminate-budget", "30000"],
            placement: .session)
        try #require(sample.waitForLine(containing: "launching -> active") != nil)
        sample.send(SIGINT)
        try #require(sample.waitForLine(containing: "will terminate (SIGINT)") != nil)
        sample.send(SIGINT)
        #expect(sample.waitForExit(timeout: 10) == .signaled(SIGINT))
        #expect(sample.linesContaining("slow terminate handler finished").isEmpty)
    }

    @Test("--exit-status ends with 128 + signal instead of re-raising it")
    func exitStatus() throws {
        let directory = try ScratchDirectory()
        let sample = try SampleProcess(
            "lp-sample-lifecycle", ["--state-dir", directory.path, "--exit-status"], placement: .session)
        try #require(sample.waitForLine(containing: "launching -> active") != nil)
        sample.send(SIGTERM)
        #expect(sample.waitForExit() == .exited(128 + SIGTERM))
    }
}
