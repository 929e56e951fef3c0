import Glibc

/// A value guarded by a pthread mutex, with `Synchronization.Mutex`'s shape
/// (`withLock { state in … }`).
///
/// Why not `Mutex`: importing Synchronization makes every program that links
/// LaunchProf load `libswiftSynchronization.so` at launch, ahead of libc in
/// the symbol search order. Measured with `valgrind --tool=callgrind` on
/// lp-hello-traced vs lp-hello-plain (release): the extra library cost about
/// 430k instructions of dynamic-loader symbol lookup per launch, the largest
/// part of LaunchProf's launch overhead. Only this type touches the mutex.
package final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only read or written with `mutex` held; the
    // mutex lives at a stable heap address for the object's whole life.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    package init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
