import Benchmark
import CTracerBefore
import LaunchProf
import Synchronization

/// One measured iteration that runs, on the same number of threads at once:
/// clock_gettime (the reference), the event as recorded now, and the event
/// as the ring at c92f6b1 recorded it, the last two in alternating order
/// from iteration to iteration. Both events are then ratios to the clock
/// read of the same iteration, so machine load moves all three alike.
enum BeforeAfter {
    /// Whether the next iteration runs the current ring first.
    private static let afterFirst = Atomic<Bool>(false)

    static func measure(
        _ benchmark: Benchmark, threads: Int, enabled: Bool,
        after: @escaping @Sendable (Int) -> Void, before: @escaping @Sendable (Int) -> Void
    ) {
        let count = benchmark.scaledIterations.count
        let clock = ConcurrentThreads.run(threads: threads, count: count) { readClock(count: $0) }
        func runAfter() -> ConcurrentThreads.Cost {
            if enabled { Tracer.enable() }
            defer { Tracer.disable() }
            return ConcurrentThreads.run(threads: threads, count: count, after)
        }
        func runBefore() -> ConcurrentThreads.Cost {
            if enabled { lpb_set_enabled(1) }
            defer { lpb_set_enabled(0) }
            return ConcurrentThreads.run(threads: threads, count: count, before)
        }
        let now: ConcurrentThreads.Cost
        let then: ConcurrentThreads.Cost
        if afterFirst.load(ordering: .relaxed) {
            now = runAfter()
            then = runBefore()
        } else {
            then = runBefore()
            now = runAfter()
        }
        afterFirst.store(!afterFirst.load(ordering: .relaxed), ordering: .relaxed)
        benchmark.measurement(PerOperation.wallPicoseconds, now.wall)
        benchmark.measurement(PerOperation.threadCPUPicoseconds, now.threadCPU)
        benchmark.measurement(PerOperation.beforeThreadCPUPicoseconds, then.threadCPU)
        benchmark.measurement(PerOperation.clockThreadCPUPicoseconds, clock.threadCPU)
        let reference = max(clock.threadCPU, 1)
        benchmark.measurement(PerOperation.perMilleOfClock, now.threadCPU * 1000 / reference)
        benchmark.measurement(PerOperation.beforePerMilleOfClock, then.threadCPU * 1000 / reference)
    }
}
