import Glibc
import Synchronization

/// A plain pthread running one closure, joined explicitly: no Foundation,
/// no executor in between.
final class BenchmarkThread: @unchecked Sendable {
    // Set once in init, read by join: no concurrent mutation.
    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { raw in
                let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
                body.run()
                return nil
            }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    func join() { pthread_join(thread, nil) }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

/// Releases all parties at once, so both threads record at the same time.
final class StartGate: Sendable {
    private let waiting: Atomic<Int>

    init(parties: Int) { waiting = Atomic(parties) }

    /// Arrives and spins until every party has arrived (a few microseconds).
    func arriveAndWait() {
        waiting.subtract(1, ordering: .acquiringAndReleasing)
        while waiting.load(ordering: .acquiring) > 0 {}
    }
}
