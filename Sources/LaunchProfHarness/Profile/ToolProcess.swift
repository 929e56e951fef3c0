import Foundation
import Glibc

/// Runs a helper tool (llvm-symbolizer) to completion under a time limit.
///
/// Its input comes from a file and its output and errors go to files, not
/// pipes: neither side can fill a pipe and wait for the other, however much
/// either writes. The tool gets its own process group, so when it outlives
/// the limit it is killed with anything it started, and it is always reaped:
/// nothing is left behind.
struct ToolProcess {
    /// How the tool ended.
    enum End: Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Still running at the time limit: killed.
        case timedOut
    }

    var end: End
    var output: Data
    var errorOutput: Data

    /// Runs `executable` with `arguments`, `input` as its standard input and
    /// the harness's environment, for at most `timeout`.
    static func run(
        _ executable: String, arguments: [String], input: Data, timeout: Duration
    ) throws(SystemCallError) -> ToolProcess {
        var template = Array("\(NSTemporaryDirectory())/launchprof-tool-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemCallError(call: "mkdtemp", errno: errno) }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inputPath = directory + "/input", outputPath = directory + "/output", errorPath = directory + "/errors"
        guard FileManager.default.createFile(atPath: inputPath, contents: input) else {
            throw SystemCallError(call: "write", subject: inputPath, errno: errno)
        }
        let pid = try spawn(executable, arguments: arguments, stdin: inputPath, stdout: outputPath, stderr: errorPath)
        let exited = waitForExit(pid, timeout: timeout)
        // While the leader is unreaped its group id cannot be reused: the
        // kill reaches only what the tool started (or the tool itself).
        _ = kill(-pid, SIGKILL)
        var status: Int32 = 0
        try Syscall.check("waitpid", "pid \(pid)") { waitpid(pid, &status, 0) }
        let signal = status & 0x7f
        let end: End = !exited ? .timedOut : signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        let output = (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data()
        let errorOutput = (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data()
        return ToolProcess(end: end, output: output, errorOutput: errorOutput)
    }

    private static func spawn(
        _ executable: String, arguments: [String], stdin: String, stdout: String, stderr: String
    ) throws(SystemCallError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        let argv = CStringArray([executable] + arguments)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
            argv.free()
        }
        let created = O_WRONLY | O_CREAT | O_TRUNC
        try Syscall.checkReturn("posix_spawn_file_actions_addopen", stdin) {
            posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        }
        try Syscall.checkReturn("posix_spawn_file_actions_addopen", stdout) {
            posix_spawn_file_actions_addopen(&actions, 1, stdout, created, 0o600)
        }
        try Syscall.checkReturn("posix_spawn_file_actions_addopen", stderr) {
            posix_spawn_file_actions_addopen(&actions, 2, stderr, created, 0o600)
        }
        // Own process group (killable as one), and no signal mask inherited
        // from a harness thread that blocks SIGINT.
        var empty = sigset_t()
        sigemptyset(&empty)
        try Syscall.checkReturn("posix_spawnattr_setflags") {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        }
        try Syscall.checkReturn("posix_spawnattr_setpgroup") { posix_spawnattr_setpgroup(&attributes, 0) }
        try Syscall.checkReturn("posix_spawnattr_setsigmask") { posix_spawnattr_setsigmask(&attributes, &empty) }
        var pid: pid_t = 0
        try Syscall.checkReturn("posix_spawn", executable) {
            posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, environ)
        }
        return pid
    }

    /// Whether `pid` exited within `timeout` (it is left unreaped): a pidfd
    /// polled with the time left, or, without pidfd_open, a check every 10 ms.
    private static func waitForExit(_ pid: pid_t, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        let descriptor = GNUExtensions.pidfdOpen(pid)
        defer { Syscall.closeQuietly(descriptor) }
        while true {
            if descriptor < 0, LaunchedProcess.hasExited(pid) { return true }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return LaunchedProcess.hasExited(pid) }
            if descriptor >= 0 {
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
                if poll(&entry, 1, milliseconds) > 0 { return true }
            } else {
                usleep(10_000)
            }
        }
    }
}
