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
    /// The mode of a file written anew (the umask does not apply).
    public static let defaultMode: mode_t = 0o644

    /// Writes `bytes` to `path` whole or not at all; `sync` makes the data
    /// durable (fsync) before the rename. The file gets `mode` whatever the
    /// umask; with `mode` nil it keeps the mode of the regular file it
    /// replaces (a results file someone made 0600 stays 0600), and a new
    /// one gets ``defaultMode``.
    public static func write(
        _ bytes: [UInt8], to path: String, sync: Bool = false, mode: mode_t? = nil
    ) throws(AtomicFileError) {
        let (temporary, fd) = try createTemporary(beside: path)
        // The mode asked for, whatever the umask (a state file must be 0600).
        fchmod(fd, mode ?? existingMode(of: path) ?? defaultMode)
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
        try rename(temporary, to: path)
    }

    /// Checks that `path` can be written the way ``write(_:to:sync:mode:)``
    /// writes it, without touching it: a temporary file can be created
    /// beside it (its directory exists and is writable) and removed, and
    /// `path` is not a directory. What a command checks for each of its
    /// outputs before it does any work, so that an output that cannot be
    /// written fails at once, not after the work.
    public static func checkWritable(_ path: String) throws(AtomicFileError) {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { throw .rename(path: path, errno: EISDIR) }
        let (temporary, fd) = try createTemporary(beside: path)
        close(fd)
        unlink(temporary)
    }

    /// Replaces `path` with the whole file `staged`, written beside it (on
    /// the same file system) by someone else, a traced program say: one rename, the
    /// existing file's mode kept as ``write(_:to:sync:mode:)`` keeps it,
    /// else ``defaultMode``); on failure `staged` is removed and `path` is
    /// as it was.
    public static func replace(_ path: String, with staged: String) throws(AtomicFileError) {
        let mode = existingMode(of: path) ?? defaultMode
        guard chmod(staged, mode) == 0 else {
            let code = errno
            unlink(staged)
            throw .write(path: path, errno: code)
        }
        try rename(staged, to: path)
    }

    // MARK: - Steps

    /// The permission bits of `path` when it is a regular file (not
    /// followed if it is a symlink: the rename replaces the link itself).
    private static func existingMode(of path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return status.st_mode & 0o7777
    }

    /// A new file beside `path` with an unpredictable name, created only if
    /// it does not exist yet (`O_EXCL | O_NOFOLLOW`).
    private static func createTemporary(beside path: String, mode: mode_t = 0o600) throws(AtomicFileError) -> (String, Int32) {
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            temporary = "\(path).tmp.\(getpid()).\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .create(path: path, errno: errno) }
        return (temporary, fd)
    }

    /// Renames `temporary` over `path`; on failure removes it.
    private static func rename(_ temporary: String, to path: String) throws(AtomicFileError) {
        guard Glibc.rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .rename(path: path, errno: code)
        }
    }
}
