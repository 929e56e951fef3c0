import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

/// `launchprof run` itself meets signals and an unusual environment: no
/// process of a run may outlive it, however it ends.
@Suite("launchprof run in a hostile world")
struct HostileRunTests {
    /// Starts `launchprof run` on a target that starts a setsid daemon and
    /// writes the daemon's and its own pid to a file, then waits for both.
    private func startRun(pids: String, extra: [String] = []) throws -> (launchprof: Process, daemon: pid_t, target: pid_t) {
        let script = "setsid sleep 300 & echo $! > \(pids).tmp; echo $$ >> \(pids).tmp; mv \(pids).tmp \(pids); exec sleep 300"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Products.path("launchprof"))
        process.arguments = ["run", "-r", "1", "-w", "0", "--timeout", "60"] + extra + ["--", "/bin/sh", "-c", script]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: pids), Date() < deadline { usleep(10_000) }
        let numbers = try String(contentsOfFile: pids, encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
        try #require(numbers.count == 2)
        return (process, numbers[0], numbers[1])
    }

    private static func alive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    private static func gone(_ pid: pid_t, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if !alive(pid) { return true }
            usleep(10_000)
        }
        return !alive(pid)
    }

    @Test(
        "SIGKILL, SIGQUIT or SIGTERM to launchprof: nothing of the run survives, setsid daemon included",
        arguments: [SIGKILL, SIGQUIT, SIGTERM])
    func killedLaunchprofLeavesNothing(signal: Int32) throws {
        let pids = Products.temporaryPath("pids")
        defer { unlink(pids) }
        let (launchprof, daemon, target) = try startRun(pids: pids)
        #expect(Self.alive(daemon) && Self.alive(target))
        let sent = Date()
        kill(launchprof.processIdentifier, signal)
        launchprof.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 5, "launchprof took \(Date().timeIntervalSince(sent)) s to go")
        #expect(Self.gone(daemon, within: 5), "the setsid daemon \(daemon) outlived launchprof (\(signal))")
        #expect(Self.gone(target, within: 5), "the target \(target) outlived launchprof (\(signal))")
        if signal != SIGKILL { #expect(launchprof.terminationStatus == 130) }
    }

    @Test("an inherited SIGCHLD=SIG_IGN does not break measuring")
    func ignoredSigchld() throws {
        let launchprof = try Products.path("launchprof")
        let run = try CommandRun.run(
            "/bin/sh", ["-c", "trap '' CHLD; exec \"$0\" run -r 3 -w 0 -- /bin/true", launchprof])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("/bin/true"))
    }

    @Test("--show-output into a pipe nobody reads any more: launchprof does not die of SIGPIPE mid-run")
    func closedOutputPipe() throws {
        let launchprof = try Products.path("launchprof")
        // A copy of yes under a name of its own, so only this test's is looked for.
        let yes = Products.temporaryPath("yes")
        // Through a close-on-exec descriptor (ExecutableFile: ETXTBSY otherwise).
        try ExecutableFile.write(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/bin/yes"))), to: yes)
        defer { unlink(yes) }
        // head exits after one line; the target keeps printing.
        let run = try CommandRun.run(
            "/bin/sh",
            [
                "-c", "\"$0\" run -r 2 -w 0 --timeout 5 --show-output -- \"$1\" 2>/dev/null | head -1; echo done",
                launchprof, yes,
            ], timeout: 60)
        #expect(run.standardOutput.contains("done"))
        let stray = try CommandRun.run("/usr/bin/pgrep", ["-f", yes])
        #expect(stray.standardOutput.isEmpty, "stray copies of yes: \(stray.standardOutput)")
    }
    @Test("launchprof started with SIGTERM and SIGINT blocked (a parent's mask passes through exec): still stopped by them")
    func inheritedBlockedSignals() throws {
        let launchprof = try Products.path("launchprof")
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in [SIGTERM, SIGINT] { sigaddset(&blocked, number) }
        posix_spawnattr_setsigmask(&attributes, &blocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let arguments = [launchprof, "run", "-r", "1", "-w", "0", "--timeout", "60", "--", "/bin/sleep", "300"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, launchprof, nil, &attributes, &argv, environ) == 0)
        // Once it is running its target (its sleep is its child), SIGTERM.
        let started = Date().addingTimeInterval(30)
        while Date() < started, (try? CommandRun.run("/usr/bin/pgrep", ["-P", "\(pid)"]).standardOutput.isEmpty) ?? true {
            usleep(20_000)
        }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        var waited: pid_t = 0
        let deadline = Date().addingTimeInterval(10)
        while waited == 0, Date() < deadline {
            waited = waitpid(pid, &status, WNOHANG)
            if waited == 0 { usleep(10_000) }
        }
        if waited == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        #expect(waited == pid, "launchprof ignored SIGTERM for 10 s with it blocked at start")
        #expect(status & 0x7f == 0 && (status >> 8) & 0xff == 130, "status \(status)")
    }
}
