import Glibc
import LaunchBenchmark
import LaunchSupport

/// Writes a file the tests then execute (shared by the test targets, as
/// `LaunchProfTestSupport`).
///
/// The tests run in parallel and spawn processes all the time; a file still
/// open for writing in any process cannot be executed (ETXTBSY). Foundation's
/// writers may leave their descriptor inheritable, so a child forked by
/// another test at that moment kept it open and a stand-in tool once failed
/// with "Text file busy". Here the descriptor is close-on-exec and closed
/// before the file is used.
public enum ExecutableFile {
    public static func write(_ text: String, to path: String, mode: mode_t = 0o755) throws {
        try write(bytes: Array(text.utf8), to: path, mode: mode)
    }

    /// `bytes` as an executable file (a program copied or damaged on purpose).
    public static func write(bytes: [UInt8], to path: String, mode: mode_t = 0o755) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemCallError(call: "open", errno: errno) }
        defer { close(fd) }
        var bytes = bytes
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw SystemCallError(call: "write", errno: errno) }
            written += n
        }
        guard fchmod(fd, mode) == 0 else { throw SystemCallError(call: "fchmod", errno: errno) }
    }
}
