import Benchmark
import Synchronization

/// Runs the same work on two threads at once and records per-operation
/// figures per thread (wall, and the busier thread's own CPU time).
enum TwoThreads {
    /// Runs `work(scaledIterations.count)` on this thread and a helper
    /// thread, released together.
    static func run(_ benchmark: Benchmark, _ work: @escaping @Sendable (Int) -> Void) {
        let count = benchmark.scaledIterations.count
        let start = StartGate(parties: 2)
        let helperCost = Atomic<Int>(0)
        let helper = BenchmarkThread {
            start.arriveAndWait()
            helperCost.store(threadCPUPicoseconds(perEventOf: count) { work(count) }, ordering: .releasing)
        }
        var ownCost = 0
        PerOperation.measure(benchmark) {
            start.arriveAndWait()
            ownCost = threadCPUPicoseconds(perEventOf: count) { work(count) }
            helper.join()
        }
        benchmark.measurement(PerOperation.threadCPUPicoseconds, max(ownCost, helperCost.load(ordering: .acquiring)))
    }
}
