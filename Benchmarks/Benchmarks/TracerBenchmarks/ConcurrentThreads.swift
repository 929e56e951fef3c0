import Benchmark
import Synchronization

/// Runs the same work on several threads at once and records per-operation
/// figures per thread (wall, and the busiest thread's own CPU time).
enum ConcurrentThreads {
    /// Runs `work(scaledIterations.count)` on this thread and `threads - 1`
    /// helper threads, released together.
    static func run(_ benchmark: Benchmark, threads: Int, _ work: @escaping @Sendable (Int) -> Void) {
        let count = benchmark.scaledIterations.count
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
        var ownCost = 0
        PerOperation.measure(benchmark) {
            start.arriveAndWait()
            ownCost = threadCPUPicoseconds(perEventOf: count) { work(count) }
            for helper in helpers { helper.join() }
        }
        benchmark.measurement(PerOperation.threadCPUPicoseconds, max(ownCost, busiestHelper.load(ordering: .acquiring)))
    }
}
