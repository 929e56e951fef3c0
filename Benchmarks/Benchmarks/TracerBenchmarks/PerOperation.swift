import Benchmark
import Glibc

/// Sub-nanosecond per-operation figures: package-benchmark prints scaled
/// times in whole units, which cannot show a 0.4 ns disabled event.
enum PerOperation {
    /// Wall time of the loop divided by its operations, in picoseconds.
    static let wallPicoseconds = BenchmarkMetric.custom("Picoseconds per op (wall)", polarity: .prefersSmaller, useScalingFactor: false)
    /// The busier thread's own CPU time per event, in picoseconds.
    static let threadCPUPicoseconds = BenchmarkMetric.custom(
        "Picoseconds per event per thread (thread CPU)", polarity: .prefersSmaller, useScalingFactor: false)

    /// Print picoseconds as they are, not rounded to thousands.
    static var units: [BenchmarkMetric: BenchmarkUnits] { [wallPicoseconds: .count, threadCPUPicoseconds: .count] }

    /// Runs `body` (which performs `benchmark.scaledIterations.count`
    /// operations) and records its wall time per operation.
    static func measure(_ benchmark: Benchmark, _ body: () -> Void) {
        let start = nanoseconds(CLOCK_MONOTONIC)
        body()
        let elapsed = nanoseconds(CLOCK_MONOTONIC) - start
        benchmark.measurement(wallPicoseconds, elapsed * 1000 / max(benchmark.scaledIterations.count, 1))
    }
}

/// The calling thread's CPU time for `body`, per event, in picoseconds.
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
