import Foundation
import Glibc
import LaunchProfTestSupport
import Synchronization
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// Programs that misbehave, run through the real spawner: floods, daemons
/// that escape their group, impostors on the record and notify sockets.
@Suite("Spawning: a hostile world")
struct HostileSpawnTests {
    @Test("a child flooding stdout cannot hold the run past its timeout")
    func floodingChildTimesOut() throws {
        let started = Date()
        let run = try launchOnce(
            LaunchTarget(name: "yes", arguments: ["/usr/bin/yes"], ready: .output("NO_SUCH_LINE")),
            timeout: .seconds(2))
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.exit == .timedOut)
        // The timeout plus the time to kill and reap; the flood is never drained to its end.
        #expect(elapsed < 6, "took \(elapsed) s for a 2 s timeout")
        #expect(!processIsAlive(run.pid))
    }

    @Test("Ctrl-C stops a run within 100 ms while the child floods its output")
    func interruptDuringFlood() throws {
        let monitor = try InterruptMonitor()
        defer { monitor.stop() }
        // When the interrupt came, measured by the thread that sent it: on a
        // busy machine its 300 ms sleep can end late (a full test suite beside
        // it made the whole run take 0.78 s), and that is not the run's delay.
        let interruptedAt = Mutex<UInt64>(0)
        let thread = Thread {
            usleep(300_000)
            interruptedAt.withLock { $0 = monotonicNanoseconds() }
            monitor.interrupt()
        }
        thread.start()
        let run = try launchOnce(
            LaunchTarget(name: "yes", arguments: ["/usr/bin/yes"], ready: .output("NO_SUCH_LINE")),
            timeout: .seconds(30), interrupt: monitor)
        let stopped = monotonicNanoseconds()
        #expect(run.interrupted)
        let sent = interruptedAt.withLock { $0 }
        let elapsed = sent > 0 && stopped >= sent ? Double(stopped - sent) / 1e9 : .infinity
        // From the interrupt: at most one bounded slice and the kill.
        #expect(elapsed < 0.1 + 0.3, "stopped \(elapsed) s after the interrupt")
    }

    @Test("--shell with several words quotes each one, so the script runs what was given")
    func shellWordsQuoted() throws {
        let scratch = try ScratchDirectory()
        let out = scratch.file("out")
        let run = try launchOnce(
            LaunchTarget(name: "printf", arguments: ["printf", "%s|", "a b", "it's", "$HOME", ";true"], useShell: true),
            output: .file(out))
        #expect(run.exit == .exited(0))
        #expect(try scratch.read("out") == "a b|it's|$HOME|;true|")
        #expect(Spawner.shellQuoted("plain-word_1.txt") == "plain-word_1.txt")
        #expect(Spawner.shellQuoted("") == "''")
    }

    @Test("endless LP1 records are capped, said once, and the run still ends at its timeout")
    func recordFloodIsCapped() throws {
        let scratch = try ScratchDirectory()
        let binary = try scratch.compile("records", HostileSource.recordFlood)
        let run = try launchOnce(
            LaunchTarget(name: "records", arguments: [binary], ready: .tracer), timeout: .seconds(2))
        #expect(run.exit == .timedOut)
        #expect(run.milestones.count == RecordChannel.limit)
        #expect(run.notes.contains { $0.contains("more than \(RecordChannel.limit) records") })
    }

    @Test("setsid and double-forked descendants are killed with the run, and counted")
    func escapedDescendantsDie() throws {
        let scratch = try ScratchDirectory()
        let binary = try scratch.compile("escape", HostileSource.escape)
        let pids = scratch.file("pids")
        let run = try launchOnce(LaunchTarget(name: "escape", arguments: [binary, pids]))
        #expect(run.exit == .exited(0))
        let text = try String(contentsOfFile: pids, encoding: .utf8)
        let escaped = text.split(separator: "\n").compactMap { pid_t($0) }
        #expect(escaped.count == 2)
        for pid in escaped { #expect(processGone(pid, within: 2), "pid \(pid) outlived the run") }
        // The program itself, the setsid daemon, the double-fork's middle
        // process (orphaned, reaped by the spawner) and its survivor.
        #expect(run.tree.processes >= 3)
    }

    @Test("records from a program a wrapper runs first are ignored, with a note naming it")
    func wrapperRecordsIgnored() throws {
        let app = try Products.path("lp-hello-traced")
        let script = "\(app) >/dev/null; exec /bin/sleep 5"
        let run = try launchOnce(
            LaunchTarget(name: "wrapper", arguments: ["/bin/sh", "-c", script], ready: .tracer), timeout: .seconds(2))
        #expect(run.wallToReady == nil)
        #expect(run.exit == .timedOut)
        // Named when it is still there to be asked (/proc/PID/comm).
        #expect(run.notes.contains { $0.contains("which is not the launched process") })
    }

    @Test("a wrapper that execs the traced program is the launch: its records count")
    func execWrapperRecordsCount() throws {
        let app = try Products.path("lp-sample-app")
        let run = try launchOnce(
            LaunchTarget(name: "exec", arguments: ["/bin/sh", "-c", "exec \(app) >/dev/null"], ready: .tracer))
        #expect(run.failure == nil, "\(run.exit)")
        #expect(run.wallToReady != nil)
        #expect(run.processEntry != nil)
        #expect(run.milestones.map(\.name).contains("config loaded"))
        #expect(run.notes.isEmpty)
    }

    @Test("a quiet spawn (the benchmark's exit probe) still times milestones and checks who sent them")
    func quietSpawnKeepsRecords() throws {
        let app = try Products.path("lp-sample-app")
        let target = LaunchTarget(name: "app", arguments: [app])
        let wrapper = LaunchTarget(name: "wrapped", arguments: ["/bin/sh", "-c", "\(app) >/dev/null; true"])
        let executor = ProcessExecutor(
            launches: [LaunchPlan(target: target, timeout: .seconds(30)), LaunchPlan(target: wrapper, timeout: .seconds(30))])
        let run = try executor.execute(RunContext(target: target, mode: .warm, index: 0, isWarmup: false))
        #expect(run.exit == .exited(0))
        #expect(run.pid > 0)
        let exit = try #require(run.wallToExit)
        let entry = try #require(run.processEntry)
        #expect(entry > 0 && entry < exit)
        #expect(run.milestones.map(\.name).contains("config loaded"))
        #expect(run.milestones.allSatisfy { $0.nanoseconds <= exit })
        // The same, run by a wrapper that does not exec it: nothing counts.
        let wrapped = try executor.execute(RunContext(target: wrapper, mode: .warm, index: 0, isWarmup: false))
        #expect(wrapped.milestones.isEmpty)
        #expect(wrapped.notes.contains { $0.contains("which is not the launched process") })
    }

    @Test("a quiet spawn that cannot start is an error naming the program")
    func quietSpawnFailure() throws {
        let target = LaunchTarget(name: "nowhere", arguments: ["/bin/true"], workingDirectory: "/nonexistent/dir")
        let executor = ProcessExecutor(launches: [LaunchPlan(target: target, timeout: .seconds(10))])
        #expect(throws: LaunchError.self) {
            try executor.execute(RunContext(target: target, mode: .warm, index: 0, isWarmup: false))
        }
    }

    @Test("record refuses a trace written by a program the target merely ran")
    func foreignTraceRefused() throws {
        let scratch = try ScratchDirectory()
        let traced = try Products.path("lp-hello-traced")
        let recorder = TraceRecorder(timeout: .seconds(20), output: .discard)
        #expect {
            try recorder.record(
                LaunchTarget(name: "wrapper", arguments: ["/bin/sh", "-c", "\(traced) >/dev/null; true"]),
                to: scratch.file("trace.lptrace"))
        } throws: { error in
            guard case RecordError.foreignTrace(_, _, let writer, let launched) = error else { return false }
            return Int32(writer) != launched
        }
        // The same program exec'd is the launch, and its trace is taken.
        let recorded = try recorder.record(
            LaunchTarget(name: "exec", arguments: ["/bin/sh", "-c", "exec \(traced) >/dev/null"]),
            to: scratch.file("trace2.lptrace"))
        #expect(Int32(recorded.trace.header.pid) == recorded.run.pid)
    }

    @Test("LaunchProf takes its LAUNCHPROF_* variables once: a child the program runs does not inherit them")
    func childrenDoNotInheritVariables() throws {
        let scratch = try ScratchDirectory()
        let app = try Products.path("lp-sample-app")
        let out = scratch.file("child-env")
        var target = LaunchTarget(
            name: "app", arguments: [app, "--words", "100", "--then", "env > \(out)"], ready: .exit)
        target.environment["LAUNCHPROF_TRACE"] = scratch.file("app.lptrace")
        let run = try launchOnce(target)
        #expect(run.exit == .exited(0))
        #expect(run.processEntry != nil, "the program itself was traced")
        let environment = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!environment.contains("LAUNCHPROF_"), "\(environment)")
        #expect(FileManager.default.fileExists(atPath: scratch.file("app.lptrace")))
    }

    @Test("a setuid program that links LaunchProf ignores LAUNCHPROF_TRACE from its caller")
    func setuidIgnoresTracePath() throws {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser"), getpwnam("nobody") != nil
        else {
            print("skipped: needs root, runuser and the user nobody to run a setuid program as another user")
            return
        }
        // A world-readable directory on a filesystem that honours setuid.
        let directory = "/var/tmp/launchprof-setuid-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o777)
        let mounts = try String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)
        let nosuid = mounts.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && ["/var/tmp", "/var", "/"].contains(String(fields[1])) && fields[3].contains("nosuid")
                && directory.hasPrefix(String(fields[1]) == "/" ? "/" : String(fields[1]) + "/")
        }
        if nosuid {
            print("skipped: \(directory) is on a nosuid filesystem")
            return
        }
        let program = directory + "/traced"
        // Copied through a close-on-exec descriptor: FileManager's copy left
        // its descriptor inheritable, a child another test forked meanwhile
        // kept it open, and runuser's exec failed with ETXTBSY (env: 126).
        let binary = try Data(contentsOf: URL(fileURLWithPath: try Products.path("lp-hello-traced")))
        try ExecutableFile.write(bytes: Array(binary), to: program)
        chmod(program, 0o4755)  // setuid root
        let trace = directory + "/chosen-by-caller.lptrace"
        let status = try CommandRun.run(
            "/usr/sbin/runuser", ["-u", "nobody", "--", "/usr/bin/env", "LAUNCHPROF_TRACE=\(trace)", program]
        ).status
        #expect(status == 0)
        #expect(!FileManager.default.fileExists(atPath: trace), "a setuid program wrote where its caller chose")
        // The same program without the setuid bit honours it: the test can tell.
        chmod(program, 0o755)
        _ = try CommandRun.run("/usr/sbin/runuser", ["-u", "nobody", "--", "/usr/bin/env", "LAUNCHPROF_TRACE=\(trace)", program])
        #expect(FileManager.default.fileExists(atPath: trace))
    }

    @Test("READY=1 from a process outside the run's tree is refused")
    func notifyImpostorRefused() throws {
        let scratch = try ScratchDirectory()
        let impostor = try scratch.compile("impostor", HostileSource.notifySender)
        let socketFile = scratch.file("socket")
        // The target writes its NOTIFY_SOCKET to a file and waits; an
        // impostor started by the test (not by the run) sends READY=1.
        let target = LaunchTarget(
            name: "waits", arguments: ["/bin/sh", "-c", "printf %s \"$NOTIFY_SOCKET\" > \(socketFile); exec sleep 30"],
            ready: .notify)
        let process = try Spawner().spawn(target, options: .forProbe(.notify, output: .discard))
        var address = ""
        for _ in 0..<500 where address.isEmpty {
            address = (try? String(contentsOfFile: socketFile, encoding: .utf8)) ?? ""
            usleep(10_000)
        }
        #expect(address.hasPrefix("/"), "the notify socket is a path in a directory of its own")
        var info = stat()
        let directory = String(address[..<(address.lastIndex(of: "/") ?? address.endIndex)])
        // Others may enter (a service may become another user) but not list, add, rename or remove.
        #expect(stat(directory, &info) == 0 && info.st_mode & 0o777 == 0o711)
        let sender = Process()
        sender.executableURL = URL(fileURLWithPath: impostor)
        sender.arguments = [address, "READY=1"]
        try sender.run()
        let run = try RunLoop(process: process, settings: RunSettings(probe: .notify, timeout: .seconds(3))).run()
        sender.waitUntilExit()
        #expect(sender.terminationStatus == 0)
        #expect(run.wallToReady == nil)
        #expect(run.exit == .timedOut)
        #expect(run.notes.contains { $0.contains("ignored READY=1") && $0.contains("impostor") })
        // The timeout itself says what arrived, from whom, and why it did not count.
        let failure = try #require(run.failure)
        #expect(failure.contains("timed out before it was ready"), "\(failure)")
        #expect(failure.contains("ignored READY=1 on the notify socket from pid \(sender.processIdentifier) (impostor)"), "\(failure)")
        #expect(failure.contains("it is not the launched process (pid \(process.pid))"), "\(failure)")
    }

    @Test("READY=1 from a descendant of the launched process is accepted")
    func notifyFromDescendant() throws {
        let scratch = try ScratchDirectory()
        let sender = try scratch.compile("sender", HostileSource.notifySender)
        let run = try launchOnce(
            LaunchTarget(
                name: "child sends", arguments: ["/bin/sh", "-c", "\(sender) \"$NOTIFY_SOCKET\" READY=1 hold; sleep 30"],
                ready: .notify), timeout: .seconds(10))
        #expect(run.wallToReady != nil)
        #expect(run.exit == .stoppedByHarness(signal: SIGTERM))
    }

    @Test("--ready port:N refuses a port something already listens on, naming it")
    func portAlreadyTaken() throws {
        let port = try freeLocalPort()
        let holder = try ListeningSocket(port: port)
        #expect(throws: LaunchError.self) {
            try Spawner().spawn(LaunchTarget(name: "server", arguments: ["/bin/true"], ready: .port(port)))
        }
        do {
            _ = try Spawner().spawn(LaunchTarget(name: "server", arguments: ["/bin/true"], ready: .port(port)))
        } catch {
            #expect("\(error)".contains("pid \(getpid())"))
        }
        _ = holder
    }

    @Test("LAUNCHPROF_* variables of launchprof's own environment do not reach the program, and the run says so")
    func staleVariablesCleared() throws {
        let scratch = try ScratchDirectory()
        setenv("LAUNCHPROF_SAMPLE_HZ_TEST_STALE", "1000", 1)
        defer { unsetenv("LAUNCHPROF_SAMPLE_HZ_TEST_STALE") }
        let out = scratch.file("env")
        let run = try launchOnce(
            LaunchTarget(name: "env", arguments: ["/bin/sh", "-c", "env > \(out)"]), output: .discard)
        #expect(run.exit == .exited(0))
        let environment = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!environment.contains("LAUNCHPROF_SAMPLE_HZ_TEST_STALE"))
        #expect(environment.contains("LAUNCHPROF_RECORD_FD=3"))
        #expect(run.notes.contains { $0.contains("LAUNCHPROF_SAMPLE_HZ_TEST_STALE") })
    }
}

/// Max RSS and the whole tree's resources, checked against the kernel's own
/// figures for the same programs.
@Suite("Spawning: the program's own resources")
struct TreeResourceTests {
    @Test("a C program touching 64 MiB reports 64–68 MiB, within 5% of /usr/bin/time -f %M")
    func maxRSSIsTheProgramsOwn() throws {
        let scratch = try ScratchDirectory()
        let binary = try scratch.compile("touch", HostileSource.touchMemory)
        let run = try launchOnce(LaunchTarget(name: "touch", arguments: [binary, "64"]))
        #expect(run.exit == .exited(0))
        let mebibytes = Double(run.usage.maxRSSBytes) / 1_048_576
        #expect(mebibytes >= 64 && mebibytes <= 68, "max RSS \(mebibytes) MiB")
        let time = try CommandRun.run("/usr/bin/time", ["-f", "%M", binary, "64"])
        let reference = try #require(Double(time.standardError.split(separator: "\n").last ?? "")) / 1024
        #expect(abs(mebibytes - reference) / reference < 0.05, "launchprof \(mebibytes) MiB, time \(reference) MiB")
    }

    @Test("a small program's max RSS is its own, not the harness's tens of MiB")
    func smallProgram() throws {
        let run = try launchOnce(LaunchTarget(name: "true", arguments: ["/bin/true"]))
        #expect(run.usage.maxRSSBytes <= 3 * 1_048_576)
    }

    @Test("a child that allocates 100 MiB is named as the tree's largest process")
    func largestProcessIsTheChild() throws {
        let scratch = try ScratchDirectory()
        let binary = try scratch.compile("parent", HostileSource.bigChild)
        let run = try launchOnce(LaunchTarget(name: "parent", arguments: [binary]))
        #expect(run.exit == .exited(0))
        let largest = try #require(run.tree.largest)
        #expect(largest.name == "allocator", "\(run.tree)")
        #expect(largest.maxRSSBytes >= 100 * 1_048_576)
        #expect(run.usage.maxRSSBytes < 10 * 1_048_576, "the launched process's own peak stays its own")
        let measurement = run.measurement(index: 0)
        #expect(measurement.maxRSSBytes == largest.maxRSSBytes)
        #expect(measurement.largestProcess == largest)
    }

    @Test("a server that forks workers reports the tree's CPU, not only the launcher's")
    func treeCPU() throws {
        let scratch = try ScratchDirectory()
        let binary = try scratch.compile("workers", HostileSource.forkingServer)
        let run = try launchOnce(LaunchTarget(name: "workers", arguments: [binary], ready: .tracer), timeout: .seconds(20))
        #expect(run.wallToReady != nil)
        // Each of two detached workers burns 150 ms of CPU; the launcher almost none.
        #expect(run.usage.userCPU + run.usage.systemCPU < 100_000_000)
        #expect(run.tree.usage.userCPU + run.tree.usage.systemCPU >= 250_000_000)
        #expect(run.tree.processes >= 3)
        let measurement = run.measurement(index: 0)
        #expect(measurement.userCPU == run.tree.usage.userCPU)
        #expect(measurement.process == run.usage)
        #expect(measurement.processCount == run.tree.processes)
    }
}

/// A listening TCP socket on 127.0.0.1, closed with the object.
final class ListeningSocket {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(fd, 4) == 0, "cannot listen on port \(port)")
    }

    deinit { close(fd) }
}

/// C sources of the hostile programs.
enum HostileSource {
    /// Writes `LP1 milestone` records on LAUNCHPROF_RECORD_FD forever.
    static let recordFlood = """
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <time.h>
        #include <unistd.h>
        int main(void) {
            int fd = atoi(getenv("LAUNCHPROF_RECORD_FD"));
            char line[96];
            for (unsigned long i = 0;; i++) {
                struct timespec now; clock_gettime(CLOCK_MONOTONIC, &now);
                int n = snprintf(line, sizeof line, "LP1 milestone %llu m%lu\\n",
                    (unsigned long long)now.tv_sec * 1000000000ull + now.tv_nsec, i);
                if (write(fd, line, n) < 0) usleep(100);
            }
        }
        """
    /// Starts a setsid daemon and a double-forked one, writes both pids to
    /// argv[1], exits 0 at once.
    static let escape = """
        #include <stdio.h>
        #include <stdlib.h>
        #include <unistd.h>
        int main(int argc, char **argv) {
            FILE *out = fopen(argv[1], "w");
            pid_t daemon = fork();
            if (daemon == 0) { setsid(); sleep(300); _exit(0); }
            int pipefd[2]; pipe(pipefd);
            pid_t middle = fork();
            if (middle == 0) {
                pid_t survivor = fork();
                if (survivor == 0) { setsid(); sleep(300); _exit(0); }
                write(pipefd[1], &survivor, sizeof survivor);
                _exit(0);
            }
            pid_t survivor; read(pipefd[0], &survivor, sizeof survivor);
            fprintf(out, "%d\\n%d\\n", (int)daemon, (int)survivor); fclose(out);
            return 0;
        }
        """
    /// Sends argv[2] to the datagram socket at path argv[1], then stays
    /// alive a second (a real sd_notify client blocks on a barrier until the
    /// message was read).
    static let notifySender = """
        #include <string.h>
        #include <sys/socket.h>
        #include <sys/un.h>
        #include <unistd.h>
        int main(int argc, char **argv) {
            int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
            struct sockaddr_un a = {.sun_family = AF_UNIX};
            strncpy(a.sun_path, argv[1], sizeof a.sun_path - 1);
            if (sendto(fd, argv[2], strlen(argv[2]), 0, (struct sockaddr *)&a, sizeof a) < 0) return 1;
            sleep(1);
            return 0;
        }
        """
    /// Forks a child named "allocator" that touches 100 MiB and exits; waits
    /// for its exit without reaping it (WNOWAIT), then exits, so the child is
    /// reaped by launchprof's spawner and its peak is its own.
    static let bigChild = """
        #include <stdlib.h>
        #include <string.h>
        #include <sys/prctl.h>
        #include <sys/wait.h>
        #include <unistd.h>
        int main(void) {
            pid_t child = fork();
            if (child == 0) {
                prctl(PR_SET_NAME, "allocator");
                size_t size = (size_t)100 << 20;
                volatile char *memory = malloc(size);
                for (size_t i = 0; i < size; i += 4096) memory[i] = 1;
                _exit(memory[0] == 1 ? 0 : 2);
            }
            siginfo_t info;
            waitid(P_PID, child, &info, WEXITED | WNOWAIT);
            return 0;
        }
        """
    /// Touches argv[1] MiB of fresh memory, then exits.
    static let touchMemory = """
        #include <stdlib.h>
        #include <string.h>
        int main(int argc, char **argv) {
            size_t size = (size_t)atol(argv[1]) << 20;
            volatile char *memory = malloc(size);
            for (size_t i = 0; i < size; i += 4096) memory[i] = 1;
            return memory[0] == 1 ? 0 : 2;
        }
        """
    /// Forks two workers that each burn 150 ms of CPU and outlive it (setsid),
    /// then says ready on LAUNCHPROF_RECORD_FD and waits.
    static let forkingServer = """
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <time.h>
        #include <unistd.h>
        static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }
        int main(void) {
            int fd = atoi(getenv("LAUNCHPROF_RECORD_FD"));
            int done[2]; pipe(done);
            for (int i = 0; i < 2; i++) {
                if (fork() == 0) {
                    if (fork() == 0) { setsid(); volatile double x = 0; while (cpu() < 0.15) x += 1; write(done[1], "x", 1); pause(); _exit(0); }
                    _exit(0);
                }
            }
            char c; read(done[0], &c, 1); read(done[0], &c, 1);
            struct timespec now; clock_gettime(CLOCK_MONOTONIC, &now);
            char line[64]; int n = snprintf(line, sizeof line, "LP1 ready %llu\\n", (unsigned long long)now.tv_sec * 1000000000ull + now.tv_nsec);
            write(fd, line, n);
            pause();
            return 0;
        }
        """
}
