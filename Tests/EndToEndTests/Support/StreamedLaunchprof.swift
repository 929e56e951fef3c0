import Foundation
import Glibc
import LaunchProfTestSupport

/// Runs the built `launchprof` with its standard output and error where a
/// test puts them (a full device, a pipe nobody reads), which `CommandRun`
/// cannot do: it always reads both.
enum StreamedLaunchprof {
    /// Where one stream goes.
    enum Stream: Sendable, CustomStringConvertible {
        /// A file opened for writing (`/dev/full`: every write is ENOSPC).
        case file(String)
        /// A pipe whose read end is closed before launchprof starts: every
        /// write is EPIPE (SIGPIPE, unless ignored).
        case closedPipe

        var description: String {
            switch self {
            case .file(let path): path
            case .closedPipe: "a closed pipe"
            }
        }
    }

    /// Runs `launchprof arguments…` and returns its exit status, or 128 +
    /// the signal that ended it (a trap is 132, as a shell shows it). It is
    /// killed after `timeout` seconds, so no test leaves it behind.
    static func run(
        _ arguments: [String], standardOutput: Stream, standardError: Stream, timeout: Double = 300
    ) throws -> Int32 {
        let launchprof = try Products.path("launchprof")
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }
        func descriptor(_ stream: Stream) throws -> Int32 {
            switch stream {
            case .file(let path):
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                opened.append(fd)
                return fd
            case .closedPipe:
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                close(ends[0])
                _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
                opened.append(ends[1])
                return ends[1]
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, try descriptor(standardOutput), 1)
        posix_spawn_file_actions_adddup2(&actions, try descriptor(standardError), 2)
        // SIGPIPE back to its default in the child, whatever the test runner
        // set: launchprof must cope with the default disposition itself.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = ([launchprof] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, launchprof, &actions, &attributes, &argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        for fd in opened { close(fd) }
        opened = []
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(10_000)
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
