import Benchmark
import Glibc

/// Sub-nanosecond per-operation figures: package-benchmark prints scaled
/// times in whole units, which cannot show a 0.2 ns disabled event, so these
/// metrics are picoseconds (and per mille for ratios), printed as counts.
enum PerOperation {
    /// Wall time of the loop divided by its operations, in picoseconds.
    static let wallPicoseconds = BenchmarkMetric.custom("Picoseconds per op (wall)", polarity: .prefersSmaller, useScalingFactor: false)
    /// The busiest thread's own CPU time per operation.
    static let threadCPUPicoseconds = BenchmarkMetric.custom(
        "Picoseconds per op per thread (thread CPU)", polarity: .prefersSmaller, useScalingFactor: false)
    /// The same for the ring as it was at c92f6b1, in the same iteration.
    static let beforeThreadCPUPicoseconds = BenchmarkMetric.custom(
        "Before (c92f6b1): picoseconds per op per thread (thread CPU)", polarity: .prefersSmaller, useScalingFactor: false)
    /// clock_gettime on as many threads, in the same iteration.
    static let clockThreadCPUPicoseconds = BenchmarkMetric.custom(
        "clock_gettime, same iteration: picoseconds per read per thread (thread CPU)", polarity: .prefersSmaller,
        useScalingFactor: false)
    /// The event's thread CPU time over the clock read's, x 1000.
    static let perMilleOfClock = BenchmarkMetric.custom(
        "Event ÷ clock_gettime, per mille (thread CPU)", polarity: .prefersSmaller, useScalingFactor: false)
    /// The same for the ring as it was at c92f6b1.
    static let beforePerMilleOfClock = BenchmarkMetric.custom(
        "Before (c92f6b1) ÷ clock_gettime, per mille (thread CPU)", polarity: .prefersSmaller, useScalingFactor: false)

    /// Print them as they are, not rounded to thousands.
    static var units: [BenchmarkMetric: BenchmarkUnits] {
        Dictionary(
            uniqueKeysWithValues: [
                wallPicoseconds, threadCPUPicoseconds, beforeThreadCPUPicoseconds, clockThreadCPUPicoseconds, perMilleOfClock,
                beforePerMilleOfClock,
            ].map { ($0, BenchmarkUnits.count) })
    }

    /// Records a run's thread CPU and wall time per operation.
    static func record(_ benchmark: Benchmark, _ cost: ConcurrentThreads.Cost) {
        benchmark.measurement(threadCPUPicoseconds, cost.threadCPU)
        benchmark.measurement(wallPicoseconds, cost.wall)
    }
}

/// The calling thread's CPU time for `body`, per operation, in picoseconds.
func threadCPUPicoseconds(perEventOf count: Int, _ body: () -> Void) -> Int {
    let start = nanoseconds(CLOCK_THREAD_CPUTIME_ID)
    body()
    return (nanoseconds(CLOCK_THREAD_CPUTIME_ID) - start) * 1000 / max(count, 1)
}

func nanoseconds(_ clock: clockid_t) -> Int {
    var now = timespec()
    clock_gettime(clock, &now)
    return now.tv_sec * 1_000_000_000 + now.tv_nsec
}
