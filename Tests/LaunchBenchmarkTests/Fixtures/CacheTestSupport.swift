import Foundation
import Glibc
import LaunchProfTestSupport

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

extension ScratchDirectory {
    /// A scratch directory on a disk-backed filesystem (eviction does
    /// nothing on tmpfs).
    static func diskBacked() throws -> ScratchDirectory { try ScratchDirectory(prefix: "launchprof-cache", in: "/var/tmp") }

    /// Writes `size` bytes of non-zero data to `name` and syncs it (clean pages).
    func writeFile(_ name: String, size: Int, mode: mode_t = 0o644) throws -> String {
        let file = path + "/" + name
        var bytes = [UInt8](repeating: 0, count: size)
        for index in stride(from: 0, to: size, by: 512) { bytes[index] = UInt8(truncatingIfNeeded: index / 512 | 1) }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        chmod(file, mode)
        return file
    }

    /// Writes a text file with the given mode.
    func writeText(_ name: String, _ text: String, mode: mode_t) throws -> String {
        let file = path + "/" + name
        try ExecutableFile.write(text, to: file, mode: mode)
        return file
    }
}

enum CacheTestError: Error { case spawnFailed(Int32) }

/// What wait4 said about a finished child.
struct ChildUsage {
    var status: Int32
    var majorFaults: Int
    var minorFaults: Int
}

/// Runs argv to completion with posix_spawn (output discarded) and returns
/// its exit status and page faults from wait4's rusage.
func runProcess(_ arguments: [String]) throws -> ChildUsage {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv = arguments.map { strdup($0) }
    argv.append(nil)
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard code == 0 else { throw CacheTestError.spawnFailed(code) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let exitCode = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return ChildUsage(status: exitCode, majorFaults: usage.ru_majflt, minorFaults: usage.ru_minflt)
}

/// Reads a file to its end (pulls it into the page cache).
func readWholeFile(_ path: String) throws {
    _ = try Data(contentsOf: URL(fileURLWithPath: path))
}

/// The resident share of a file, 0...1.
func residentFraction(_ path: String) throws -> Double {
    let file = try PageCache.residency(of: path)
    return file.totalPages == 0 ? 0 : Double(file.residentPages) / Double(file.totalPages)
}
