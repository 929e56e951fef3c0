import Glibc
import LaunchEngine
import LaunchSupport

/// An exclusive flock(2) on one revision's build in the cache, held while
/// it is looked up, checked out and built: two gates (or a gate and a
/// bisect) on the same commit and command take turns, so one never reuses,
/// removes or rebuilds a worktree the other is making. Released when this
/// object goes away, or by the kernel when the process dies, so a crashed
/// gate never leaves the lock behind (the lock file itself stays: it is
/// empty and harmless).
final class BuildLock {
    private let descriptor: Int32

    /// Takes the lock on `path` (made if missing), polling every 50 ms so
    /// an interrupt is seen; `waiting` is called once if another process
    /// holds it.
    init(path: String, interrupt: InterruptMonitor?, revision: String, waiting: () -> Void) throws(RevisionBuildError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .cache(path: path, message: "cannot open the lock file: \(String(cString: strerror(errno)))")
        }
        var told = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw .cache(path: path, message: "cannot lock it: \(String(cString: strerror(code)))")
            }
            if interrupt?.isInterrupted == true {
                close(descriptor)
                throw .interrupted(revision: revision)
            }
            if !told {
                waiting()
                told = true
            }
            usleep(50_000)
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
