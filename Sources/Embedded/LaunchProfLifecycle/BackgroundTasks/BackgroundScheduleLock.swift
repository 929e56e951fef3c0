import CLaunchProfLifecycle
import Glibc
import LaunchProfFiles

/// One open file description of a schedule's lock file
/// (`NAME.background-tasks.lock`), and the locks it holds: byte 0 is the
/// schedule's (held while a process reads, decides and writes), bytes 1…
/// are claims of runs under way (``BackgroundSchedule/Claim``).
///
/// Open file description locks (`F_OFD_SETLK`) rather than `flock` or
/// POSIX record locks: they belong to this description, so two schedulers
/// in one process exclude each other as two processes do, and closing some
/// other descriptor of the file does not drop them (POSIX record locks
/// would); a byte range can be asked about (`F_OFD_GETLK`), which a claim
/// needs. The kernel releases them when the description is closed — when
/// this object goes, or when the process exits or is killed — so a crash
/// while holding one leaves nothing locked. The lock is on a separate file,
/// never on the schedule itself: the schedule is replaced by rename at
/// every save, and a lock on the replaced file would lock nothing.
final class BackgroundScheduleLock {
    let path: String
    private let fd: Int32

    /// Opens (creating it, 0600) the lock file at `path`: a regular file
    /// only, never through a symlink, never blocking.
    init(path: String) throws(BackgroundTaskError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unwritableSchedule(path: path, reason: "cannot open its lock file: \(errnoText(errno))") }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .unwritableSchedule(path: path, reason: "its lock file is not a regular file")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Takes byte `offset` if no other description holds it; never waits.
    func tryLock(byte offset: Int) -> Bool { lp_ofd_lock_byte(fd, Int64(offset)) == 0 }

    func unlock(byte offset: Int) { _ = lp_ofd_unlock_byte(fd, Int64(offset)) }

    /// Whether another open file description holds byte `offset` (a
    /// failure to ask counts as held: a claim is never taken for dead on
    /// doubt).
    func isHeldElsewhere(byte offset: Int) -> Bool { lp_ofd_byte_locked(fd, Int64(offset)) != 0 }
}
