import Glibc
import LaunchProf

/// A counting semaphore for plain threads, with timeouts on CLOCK_MONOTONIC.
///
/// Why not Dispatch: importing it adds `libswiftDispatch.so` to every launch
/// of every program linking LaunchProf. Why not `sem_t`: glibc's timed wait
/// only takes a CLOCK_REALTIME deadline (a clock that jumps), and Swift does
/// not import `sem_clockwait`. `Synchronization` has no condition variable, so
/// this one type fences the pthread mutex + condition pair.
package final class ThreadSemaphore: @unchecked Sendable {
    // @unchecked: `permits` is only touched with `mutex` held; the pthread
    // objects live at stable heap addresses for the object's whole life.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var permits: Int

    package init(permits: Int = 0) {
        self.permits = permits
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Adds a permit and wakes one waiter.
    package func signal() {
        pthread_mutex_lock(mutex)
        permits += 1
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits, at most `timeout` (nil: as long as it takes), for work to be
    /// done: `park` is given a fresh semaphore and returns true when the work
    /// is already done, else keeps it to signal when it is. Returns whether
    /// the work was done in time.
    package static func wait(timeout: Duration?, parking park: (ThreadSemaphore) -> Bool) -> Bool {
        let waiter = ThreadSemaphore()
        if park(waiter) { return true }
        guard let timeout else {
            waiter.wait()
            return true
        }
        return waiter.wait(timeoutNanoseconds: RuntimeClock.nanoseconds(timeout))
    }

    /// Takes a permit, waiting as long as it takes.
    package func wait() {
        pthread_mutex_lock(mutex)
        while permits == 0 { pthread_cond_wait(condition, mutex) }
        permits -= 1
        pthread_mutex_unlock(mutex)
    }

    /// Takes a permit if one comes within `nanoseconds`; returns whether it did.
    package func wait(timeoutNanoseconds nanoseconds: UInt64) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let total = UInt64(deadline.tv_nsec) &+ nanoseconds % 1_000_000_000
        // Clamp so a huge timeout cannot overflow tv_sec.
        let seconds = min(nanoseconds / 1_000_000_000 + total / 1_000_000_000, UInt64(Int32.max))
        deadline.tv_sec += Int(seconds)
        deadline.tv_nsec = Int(total % 1_000_000_000)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while permits == 0 {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT {
                guard permits > 0 else { return false }
                break
            }
        }
        permits -= 1
        return true
    }
}
