import Glibc
import LaunchSupport
import Synchronization

/// The X display connections of one `Spawner`: one `WindowWatch` per
/// display, made on the first run that watches windows and kept until the
/// spawner is gone (the whole benchmark, profiling included). One
/// connection is cheaper than one per run, and it keeps a server that
/// resets when its last client disconnects (Xvfb without `-noreset`, as
/// `xvfb-run` starts it) from resetting between runs. A connection that
/// broke (the server died) is replaced by the next run.
final class DisplayConnections: Sendable {
    // One run uses the connections at a time (a spawner serves one run at
    // a time); the lock guards the dictionary.
    private nonisolated(unsafe) var watches: [String: WindowWatch] = [:]
    private let lock = Mutex<Void>(())

    /// The connection to `display` (nil: $DISPLAY), opened within
    /// `timeout` and `interrupt` when there is none yet; its unanswered
    /// questions and queued events are forgotten, for a new run.
    func watch(display: String?, timeout: Duration, interrupt: InterruptMonitor?) throws(LaunchError) -> WindowWatch {
        let key = display ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
        let result: Result<WindowWatch, LaunchError> = lock.withLock { _ in
            if let open = watches[key], !open.isBroken {
                open.forgetAll()
                return .success(open)
            }
            watches[key] = nil
            do throws(LaunchError) {
                let deadline = monotonicNanoseconds() &+ timeout.saturatingNanoseconds
                let watch = try WindowWatch(display: display, deadline: deadline, interrupt: interrupt?.descriptor ?? -1)
                watches[key] = watch
                return .success(watch)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
