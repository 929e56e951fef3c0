import Glibc
import Synchronization

/// Runs the same work on several threads at once: this thread and
/// `threads - 1` helper threads, released together.
enum ConcurrentThreads {
    /// What one run cost, per operation per thread, in picoseconds.
    struct Cost {
        /// The busiest thread's own CPU time (CLOCK_THREAD_CPUTIME_ID).
        var threadCPU: Int
        /// Wall time from the release to the last thread's end.
        var wall: Int
    }

    /// Runs `work(count)` on `threads` threads at once.
    static func run(threads: Int, count: Int, _ work: @escaping @Sendable (Int) -> Void) -> Cost {
        let start = StartGate(parties: threads)
        let busiestHelper = Atomic<Int>(0)
        let helpers = (1..<max(threads, 1)).map { _ in
            BenchmarkThread {
                start.arriveAndWait()
                let cost = threadCPUPicoseconds(perEventOf: count) { work(count) }
                var seen = busiestHelper.load(ordering: .relaxed)
                while seen < cost {
                    let (exchanged, original) = busiestHelper.compareExchange(
                        expected: seen, desired: cost, ordering: .acquiringAndReleasing)
                    if exchanged { break }
                    seen = original
                }
            }
        }
        start.arriveAndWait()
        let began = nanoseconds(CLOCK_MONOTONIC)
        let own = threadCPUPicoseconds(perEventOf: count) { work(count) }
        for helper in helpers { helper.join() }
        let wall = (nanoseconds(CLOCK_MONOTONIC) - began) * 1000 / max(count, 1)
        return Cost(threadCPU: max(own, busiestHelper.load(ordering: .acquiring)), wall: wall)
    }
}
