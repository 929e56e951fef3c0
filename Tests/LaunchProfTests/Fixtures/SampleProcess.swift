import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

/// A sample program running under a test: spawned with posix_spawn in its
/// own process group (or its own session, like a daemon), its stdout read
/// line by line, signalled, watched in /proc, and always reaped: deinit
/// kills and reaps a process the test did not wait for.
final class SampleProcess {
    enum Placement {
        /// Own process group in the test's session, as a shell job.
        case processGroup
        /// Own session, without a controlling terminal, as a daemon.
        case session
    }

    let pid: pid_t
    private let output: Int32
    private var pending: [UInt8] = []
    private(set) var lines: [String] = []
    private var reaped = false

    init(_ product: String, _ arguments: [String], environment: [String: String] = [:], placement: Placement) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // Not inherited by other children the test process spawns meanwhile.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[1]) }
        output = ends[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        let placementFlag = placement == .session ? 0x80 /* POSIX_SPAWN_SETSID */ : Int32(POSIX_SPAWN_SETPGROUP)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(placementFlag | Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)))
        let path = try Products.path(product)
        let environment = ProcessInfo.processInfo.environment
            .filter { !$0.key.hasPrefix("LAUNCHPROF_") && $0.key != "NOTIFY_SOCKET" }
            .merging(environment) { $1 }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child = pid_t()
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(output)
            throw POSIXError(.init(rawValue: result) ?? .EIO)
        }
        pid = child
    }

    deinit {
        if !reaped {
            kill(pid, SIGKILL)
            kill(pid, SIGCONT)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(output)
    }

    // MARK: - Output

    /// Waits up to `timeout` seconds for a line containing `text`; returns it.
    @discardableResult
    func waitForLine(containing text: String, timeout: Double = 20) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var checked = 0
        while true {
            if let line = lines[checked...].first(where: { $0.contains(text) }) { return line }
            checked = lines.count
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, readMore(timeout: remaining) else { return nil }
        }
    }

    /// Lines seen so far that contain `text`, after reading what is there.
    func linesContaining(_ text: String) -> [String] {
        while readMore(timeout: 0) {}
        return lines.filter { $0.contains(text) }
    }

    /// Reads what the pipe has within `timeout`; false at timeout or end of file.
    private func readMore(timeout: Double) -> Bool {
        var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(output, &buffer, buffer.count)
        guard count > 0 else { return false }
        pending += buffer[..<count]
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return true
    }

    // MARK: - Signals and state

    /// Sends `signal` to the process (or, like a terminal, to its whole group).
    func send(_ signal: Int32, toGroup: Bool = false) {
        kill(toGroup ? -pid : pid, signal)
    }

    /// The state letter in /proc/PID/stat (R, S, T, Z, …).
    var procState: Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].first
    }

    /// Waits up to `timeout` seconds for /proc to show `state`.
    func waitForProcState(_ state: Character, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if procState == state { return true }
            usleep(1_000)
        }
        return false
    }

    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// Waits up to `timeout` seconds for the process to end, and reaps it.
    func waitForExit(timeout: Double = 20) -> Ending? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                while readMore(timeout: 0) {}
                let signal = status & 0x7f
                return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
            }
            usleep(2_000)
        }
        return nil
    }
}
