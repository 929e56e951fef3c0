import CLaunchProfSupport
import Glibc
import LaunchProf

/// Starts detached, named pthreads for the deferred initializer and the
/// prewarm registry.
///
/// Plain threads rather than the Swift concurrency pool: deferred and
/// prewarm work is usually synchronous and blocking, and must never occupy
/// one of the cooperative pool's few threads (one per core).
package enum BackgroundThread {
    private final class Context {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Runs `body` on a new detached thread called `name` (15 bytes kept).
    ///
    /// When the system refuses a thread (EAGAIN: thread or memory limits),
    /// `body` runs on the calling thread instead: late, but never lost.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        if spawn(name: name, body) != 0 { body() }
    }

    /// Starts `body` on a new detached thread called `name`; returns
    /// pthread_create's result (0, or why the system refused the thread, in
    /// which case `body` was not run).
    package static func spawn(name: String, _ body: @escaping @Sendable () -> Void) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Context(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { raw in
                let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
                lp_set_thread_name(context.name)
                context.body()
                return nil
            }, context)
        if result != 0 { Unmanaged<Context>.fromOpaque(context).release() }
        return result
    }
}
