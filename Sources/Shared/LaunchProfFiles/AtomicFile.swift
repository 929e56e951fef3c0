#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The text of an errno value (strerror).
package func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// Writes whole files or nothing: the one way files are written, by traced
/// programs (traces, state, schedules) and by launchprof (results, reports,
/// baselines) alike. The bytes go to a temporary file beside the target (same
/// file system, so rename(2) is atomic), are synced when asked, and replace
/// the target in one rename: a reader, or a crash, never sees half a file,
/// and on failure the temporary file is removed.
///
/// The temporary file has a name no one can predict and is created only if
/// it does not exist yet (`O_EXCL | O_NOFOLLOW`): two threads or processes
/// saving the same file at once each write their own and the last rename
/// wins with a whole file, and no one can plant a symlink for us to follow.
///
/// Foundation-free, so that LaunchProf can use it.
public enum AtomicFile {
    /// Writes `bytes` to `path` whole or not at all, with `mode` whatever
    /// the umask; `sync` makes the data durable (fsync) before the rename.
    public static func write(
        _ bytes: [UInt8], to path: String, sync: Bool = false, mode: mode_t = 0o644
    ) throws(AtomicFileError) {
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            temporary = "\(path).tmp.\(getpid()).\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .create(path: path, errno: errno) }
        // The mode asked for, whatever the umask (a state file must be 0600).
        fchmod(fd, mode)
        var failure: AtomicFileError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = .write(path: path, errno: errno)
                    return
                }
                offset += written
            }
        }
        if failure == nil, sync, fsync(fd) != 0 { failure = .write(path: path, errno: errno) }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .rename(path: path, errno: code)
        }
    }
}
