import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// C sources of misbehaving programs.
enum MisbehavingSource {
    static let crash = "#include <stdlib.h>\nint main(void) { abort(); }\n"
    static let hang = "#include <unistd.h>\nint main(void) { for (;;) pause(); }\n"
    /// Prints "ready", ignores SIGTERM, then waits forever.
    static let ignoreTerm = """
        #include <signal.h>
        #include <stdio.h>
        #include <unistd.h>
        int main(void) { signal(SIGTERM, SIG_IGN); puts("ready"); fflush(stdout); for (;;) pause(); }
        """
    /// Writes `argv[1]` MiB of lines to stdout and stderr, then "READY", then
    /// exits (or waits, with a second argument).
    static let flood = """
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        int main(int argc, char **argv) {
            long mib = argc > 1 ? atol(argv[1]) : 8;
            char line[128]; memset(line, 'x', 127); line[127] = '\\n';
            for (long i = 0; i < mib * 8192; i++) { fwrite(line, 1, 128, (i & 1) ? stderr : stdout); }
            printf("READY after flood\\n"); fflush(stdout);
            if (argc > 2) for (;;) pause();
            return 0;
        }
        """
    /// Forks a grandchild that sleeps (same process group), prints its pid, exits 0.
    static let forkGrandchild = """
        #include <stdio.h>
        #include <unistd.h>
        int main(void) {
            pid_t child = fork();
            if (child == 0) { sleep(300); _exit(0); }
            printf("%d\\n", (int)child); fflush(stdout);
            return 0;
        }
        """
    /// Like `hang`, after forking a sleeping grandchild whose pid it prints.
    static let hangWithGrandchild = """
        #include <stdio.h>
        #include <unistd.h>
        int main(void) {
            pid_t child = fork();
            if (child == 0) { sleep(300); _exit(0); }
            printf("%d\\n", (int)child); fflush(stdout);
            for (;;) pause();
        }
        """
    /// Writes a record of protocol version 2 on LAUNCHPROF_RECORD_FD, then waits.
    static let wrongProtocol = """
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        int main(void) {
            const char *fd = getenv("LAUNCHPROF_RECORD_FD");
            if (!fd) return 9;
            const char *line = "LP2 ready 123\\n";
            write(atoi(fd), line, strlen(line));
            for (;;) pause();
        }
        """
    /// Prints its launchprof variables, one per line.
    static let printEnvironment = """
        #include <stdio.h>
        #include <stdlib.h>
        int main(void) {
            const char *names[] = {"LAUNCHPROF_SPAWN_NS", "LAUNCHPROF_RECORD_FD", "NOTIFY_SOCKET"};
            for (int i = 0; i < 3; i++) { const char *v = getenv(names[i]); printf("%s=%s\\n", names[i], v ? v : "(unset)"); }
            return 0;
        }
        """
}

/// Whether `pid` is a live (not zombie) process.
func processIsAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(close, offsetBy: 2)]
    return state != "Z" && state != "X"
}

/// Waits up to `seconds` for `pid` to disappear (a killed orphan is reaped
/// by init, which takes a moment on a busy machine).
func processGone(_ pid: pid_t, within seconds: Double = 5) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if !processIsAlive(pid) { return true }
        usleep(10_000)
    }
    return !processIsAlive(pid)
}

/// A TCP port on 127.0.0.1 that was free a moment ago.
func freeLocalPort() throws -> Int { Int(try LocalPort.free()) }

/// Spawns `target` and runs the loop to the end.
func launchOnce(
    _ target: LaunchTarget, output: OutputDisposition = .discard, timeout: Duration = .seconds(30),
    grace: Duration = .seconds(2), interrupt: InterruptMonitor? = nil
) throws -> ObservedRun {
    try Spawner().run(RunRequest(target: target, timeout: timeout, grace: grace, output: output), interrupt: interrupt)
}
