import Glibc

/// Runs `body(index)` on `count` new pthreads at once and joins them all.
func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Context: @unchecked Sendable {
        // @unchecked: immutable after init, read by one thread.
        let index: Int
        let body: @Sendable (Int) -> Void
        init(index: Int, body: @escaping @Sendable (Int) -> Void) {
            self.index = index
            self.body = body
        }
    }
    var threads: [pthread_t] = []
    for index in 0..<count {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Context(index: index, body: body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { raw in
                let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
                context.body(context.index)
                return nil
            }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// State that test threads share through @Sendable closures, behind a
/// pthread mutex: ThreadSanitizer understands pthread locks, while
/// Synchronization.Mutex on Linux is a bare futex it cannot see, so every
/// access under one is reported as a race.
final class Shared<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched with `lock` held.
    private var value: Value
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}
