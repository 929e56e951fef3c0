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
        let result = pthread_create(&thread, nil, { raw in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
            context.body(context.index)
            return nil
        }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}
