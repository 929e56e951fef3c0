import Benchmark
import Glibc
import LaunchProf
import Synchronization

/// The cost of recording one event, beside the clock read it is built on.
///
/// Every benchmark runs `scaledIterations` (1 Mi) operations per measured
/// iteration, so the per-operation figures (marked `*`) are in nanoseconds
/// per event. They are whole nanoseconds, too coarse for a 1 ns budget, so
/// each benchmark also reports "Picoseconds per op" (its own clock around the
/// loop, in ps). Compare each against "clock_gettime (reference)" from the
/// same run; the tracer's targets are ratios to it:
/// - enabled event <= 1.1x one clock read, with 1, 2 and 4 threads recording
///   at once (per event per thread, beside the clock read by as many threads),
/// - disabled event <= 1 ns.
/// Scripts/compare/compare-tracer-cost.sh measures the same C hot path before and
/// after a change, alternately in one run, without this package's dependency.
let benchmarks: @Sendable () -> Void = {
    // A large ring that overwrites its oldest events: the benchmark measures
    // the steady-state hot path, never the full-ring drop path.
    Tracer.configure(capacity: 1 << 20, policy: .overwriteOldest)
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, PerOperation.wallPicoseconds],
        timeUnits: .nanoseconds,
        units: PerOperation.units,
        scalingFactor: .mega,
        maxDuration: .seconds(3),
        maxIterations: 200
    )
    let signposter = Signposter(subsystem: "com.launchprof.benchmarks", category: "tracer")

    Benchmark("clock_gettime (reference)") { benchmark in
        var now = timespec()
        PerOperation.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                clock_gettime(CLOCK_MONOTONIC, &now)
                blackHole(now.tv_nsec)
            }
        }
    }

    Benchmark("emitEvent, 1 thread") { benchmark in
        Tracer.enable()
        defer { Tracer.disable() }
        PerOperation.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                signposter.emitEvent("event")
            }
        }
    }

    Benchmark("beginInterval + endInterval, 1 thread") { benchmark in
        Tracer.enable()
        defer { Tracer.disable() }
        PerOperation.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                let state = signposter.beginInterval("interval")
                signposter.endInterval("interval", state)
            }
        }
    }

    Benchmark("emitEvent, tracing disabled") { benchmark in
        Tracer.disable()
        PerOperation.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                signposter.emitEvent("event")
            }
        }
    }

    // The threads record scaledIterations events each, at once; the
    // per-iteration figure is therefore the wall time per event *per thread*,
    // directly comparable with "emitEvent, 1 thread" when the threads really
    // run at once. On a loaded 2-core VM they may not (and 4 threads on 2
    // cores never do), so each thread also reports its own CPU time per
    // event, and the same is measured for as many threads reading the clock:
    // the tracer's contention cost is the difference between the two.
    for threads in [2, 4] {
        Benchmark("clock_gettime, \(threads) threads at once (per read per thread)", configuration: concurrentConfiguration) {
            benchmark in
            ConcurrentThreads.run(benchmark, threads: threads) { count in readClock(count: count) }
        }

        Benchmark("emitEvent, \(threads) threads at once (per event per thread)", configuration: concurrentConfiguration) {
            benchmark in
            Tracer.enable()
            defer { Tracer.disable() }
            ConcurrentThreads.run(benchmark, threads: threads) { count in emitEvents(signposter, count: count) }
        }
    }

    Benchmark("beginInterval, tracing disabled") { benchmark in
        Tracer.disable()
        PerOperation.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(signposter.beginInterval("interval"))
            }
        }
    }
}

/// The defaults plus each thread's own CPU time per operation.
var concurrentConfiguration: Benchmark.Configuration {
    var configuration = Benchmark.defaultConfiguration
    configuration.metrics += [PerOperation.threadCPUPicoseconds]
    return configuration
}

/// Reads the clock `count` times (not inlined, like ``emitEvents``).
@inline(never)
func readClock(count: Int) {
    var now = timespec()
    for _ in 0..<count {
        clock_gettime(CLOCK_MONOTONIC, &now)
        blackHole(now.tv_nsec)
    }
}

/// Records `count` events (not inlined into the benchmark closure so both
/// threads run the same code).
@inline(never)
func emitEvents(_ signposter: Signposter, count: Int) {
    for _ in 0..<count {
        signposter.emitEvent("event")
    }
}
