import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// posix_spawn, wait4 and the process lifecycle, with real programs.
@Suite("Spawning and measuring")
struct SpawnTests {
    @Test("/bin/true exits 0 with time to exit, rusage, and ready = exit")
    func binTrue() throws {
        let run = try launchOnce(LaunchTarget(name: "true", arguments: ["/bin/true"]))
        #expect(run.exit == .exited(0))
        #expect(run.failure == nil)
        let exit = try #require(run.wallToExit)
        #expect(exit > 0 && exit < 30_000_000_000)
        #expect(run.wallToReady == run.wallToExit)
        #expect(run.usage.minorFaults > 0)
        #expect(run.usage.maxRSSBytes > 0)
        // The program's own peak, not the test process's (tens of MiB).
        #expect(run.usage.maxRSSBytes < 4 * 1_048_576)
        #expect(run.tree.processes == 1)
        #expect(run.tree.largest?.name == "true")
        #expect(!processIsAlive(run.pid))
    }

    @Test("a name without '/' is found through PATH, like execvp")
    func pathLookup() throws {
        let run = try launchOnce(LaunchTarget(name: "true", arguments: ["true"]))
        #expect(run.exit == .exited(0))
        #expect(try ProgramResolver.resolve("true", searchPath: "/nonexistent:/usr/bin:/bin").hasSuffix("/true"))
    }

    @Test("argv reaches the program exactly, spaces and quotes included")
    func argvExact() throws {
        let scratch = try ScratchDirectory()
        let arguments = ["/bin/sh", "-c", "printf '%s|' \"$@\"", "sh", "a b", "it's", "", "$HOME"]
        let run = try launchOnce(
            LaunchTarget(name: "argv", arguments: arguments), output: .file(scratch.file("out")))
        #expect(run.exit == .exited(0))
        #expect(try scratch.read("out") == "a b|it's||$HOME|")
    }

    @Test("--shell runs the command line through /bin/sh -c")
    func shell() throws {
        let scratch = try ScratchDirectory()
        let run = try launchOnce(
            LaunchTarget(name: "shell", arguments: ["echo one; echo two >&2"], useShell: true),
            output: .file(scratch.file("out")))
        #expect(run.exit == .exited(0))
        #expect(try scratch.read("out") == "one\ntwo\n")
    }

    @Test("the child gets t0, the record pipe, and no inherited NOTIFY_SOCKET; cwd is honoured")
    func environment() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("env", MisbehavingSource.printEnvironment)
        let target = LaunchTarget(name: "env", arguments: [program], workingDirectory: scratch.path)
        let process = try Spawner().spawn(target, options: SpawnOptions(output: .file(scratch.file("out"))))
        let t0 = process.startNanoseconds
        let run = try RunLoop(process: process, settings: RunSettings()).run()
        #expect(run.exit == .exited(0))
        let lines = try scratch.read("out").split(separator: "\n")
        #expect(lines[0] == "LAUNCHPROF_SPAWN_NS=\(t0)")
        #expect(lines[1].hasPrefix("LAUNCHPROF_RECORD_FD=") && !lines[1].hasSuffix("(unset)"))
        #expect(lines[2] == "NOTIFY_SOCKET=(unset)")
    }

    @Test("a non-zero exit is reported as a failure")
    func nonZeroExit() throws {
        let run = try launchOnce(LaunchTarget(name: "false", arguments: ["/bin/false"]))
        #expect(run.exit == .exited(1))
        #expect(run.failure == "exited with status 1")
    }

    @Test("a crash reports its signal")
    func crash() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("crash", MisbehavingSource.crash)
        let run = try launchOnce(LaunchTarget(name: "crash", arguments: [program]))
        #expect(run.exit == .signaled(SIGABRT))
        #expect(run.failure?.contains("SIGABRT") == true)
    }

    @Test("a missing program is a clear error naming it")
    func missingProgram() throws {
        #expect(throws: LaunchError.noSuchFile("/nonexistent/program")) {
            try Spawner().spawn(LaunchTarget(name: "x", arguments: ["/nonexistent/program"]))
        }
        do {
            _ = try Spawner().spawn(LaunchTarget(name: "x", arguments: ["launchprof-no-such-program"]))
            Issue.record("spawn should fail")
        } catch {
            #expect(error.description.contains("'launchprof-no-such-program' not found in PATH"))
        }
    }

    @Test("a file without execute permission, or a directory, is a clear error")
    func notExecutable() throws {
        let scratch = try ScratchDirectory()
        let script = scratch.file("script.sh")
        try "#!/bin/sh\nexit 0\n".write(toFile: script, atomically: true, encoding: .utf8)
        do {
            _ = try Spawner().spawn(LaunchTarget(name: "x", arguments: [script]))
            Issue.record("spawn should fail")
        } catch {
            #expect(error.description.contains("'\(script)' is not executable"))
            #expect(error.description.contains("chmod +x"))
        }
        #expect(throws: LaunchError.notExecutable(scratch.path, reason: "it is a directory")) {
            try Spawner().spawn(LaunchTarget(name: "x", arguments: [scratch.path]))
        }
    }

    @Test("a grandchild left in the process group is killed when the program exits")
    func grandchildKilled() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("forker", MisbehavingSource.forkGrandchild)
        let run = try launchOnce(LaunchTarget(name: "forker", arguments: [program]), output: .file(scratch.file("out")))
        #expect(run.exit == .exited(0))
        let grandchild = try #require(pid_t(try scratch.read("out").trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(processGone(grandchild))
    }

    @Test("a hanging program is killed with its group at the timeout")
    func timeout() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("hang", MisbehavingSource.hangWithGrandchild)
        let start = monotonicNanoseconds()
        let run = try launchOnce(
            LaunchTarget(name: "hang", arguments: [program]), output: .file(scratch.file("out")),
            timeout: .milliseconds(500))
        #expect(run.exit == .timedOut)
        #expect(run.failure?.contains("timed out") == true)
        #expect(monotonicNanoseconds() - start >= 500_000_000)
        #expect(!processIsAlive(run.pid))
        let grandchild = try #require(pid_t(try scratch.read("out").trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(processGone(grandchild))
    }

    @Test("an interrupt kills the running child and marks the run interrupted")
    func interrupted() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("hang", MisbehavingSource.hang)
        let monitor = try InterruptMonitor()
        defer { monitor.stop() }
        let process = try Spawner().spawn(LaunchTarget(name: "hang", arguments: [program]))
        let pid = process.pid
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { monitor.interrupt() }
        let run = try RunLoop(process: process, settings: RunSettings(timeout: .seconds(30)), interrupt: monitor).run()
        #expect(run.interrupted)
        #expect(!processIsAlive(pid))
    }

    @Test("a dropped, unobserved process is killed and reaped, not leaked")
    func droppedProcess() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("hang", MisbehavingSource.hang)
        var pid: pid_t = 0
        do {
            let process = try Spawner().spawn(LaunchTarget(name: "hang", arguments: [program]))
            pid = process.pid
        }
        #expect(pid > 0)
        #expect(!processIsAlive(pid))
    }

    @Test("wait status decoding: exit codes and signals")
    func decodeStatus() {
        #expect(LaunchedProcess.decode(0) == .exited(0))
        #expect(LaunchedProcess.decode(3 << 8) == .exited(3))
        #expect(LaunchedProcess.decode(Int32(SIGSEGV)) == .signaled(SIGSEGV))
        #expect(LaunchedProcess.decode(Int32(SIGABRT) | 0x80) == .signaled(SIGABRT))  // core dumped
    }
}
