import Benchmark
import CTracerBefore
import Glibc
import LaunchProf

/// The cost of recording one event, as a ratio to the clock read it is
/// built on, now and as the ring at c92f6b1 (before block ownership) did it.
///
/// Every benchmark runs `scaledIterations` (10^6) operations per thread per
/// measured iteration. The figures that matter are custom metrics in
/// picoseconds and per mille (package-benchmark prints times in whole
/// nanoseconds, too coarse for a 1 ns budget), all of thread CPU time per
/// operation per thread, the busiest thread's: 4 threads on a 2-core machine
/// never run at once, and wall time would count the waiting.
/// - "event, N threads": each iteration reads the clock on N threads, then
///   records on N threads with the current ring and with the c92f6b1 ring
///   (alternating which goes first), and reports each event ÷ that clock
///   read, per mille. Target: <= 1100 at 1, 2 and 4 threads.
/// - "event, tracing disabled": both rings, picoseconds per call. Target:
///   <= 1000 ps.
/// Scripts/compare/compare-tracer-cost.sh measures the same C hot paths
/// before and after, built with clang, without this package's dependency.
let benchmarks: @Sendable () -> Void = {
    // Large rings that overwrite their oldest events: the steady-state hot
    // path, never the full-ring drop path.
    Tracer.configure(capacity: 1 << 20, policy: .overwriteOldest)
    lpb_configure(1 << 20, UInt32(LPB_POLICY_OVERWRITE_OLDEST))
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: PerOperation.units,
        scalingFactor: .mega,
        maxDuration: .seconds(3),
        maxIterations: 200
    )
    let signposter = Signposter(subsystem: "com.launchprof.benchmarks", category: "tracer")
    let compared = [
        PerOperation.perMilleOfClock, PerOperation.beforePerMilleOfClock, PerOperation.threadCPUPicoseconds,
        PerOperation.beforeThreadCPUPicoseconds, PerOperation.clockThreadCPUPicoseconds, PerOperation.wallPicoseconds,
    ]

    for threads in [1, 2, 4] {
        Benchmark(
            "event, \(threads) thread\(threads == 1 ? "" : "s") at once: now and before (c92f6b1), ÷ clock_gettime",
            configuration: .init(metrics: compared, maxDuration: .seconds(10), maxIterations: 100)
        ) { benchmark in
            BeforeAfter.measure(
                benchmark, threads: threads, enabled: true,
                after: { emitEvents(signposter, count: $0) }, before: { emitEventsBefore(count: $0) })
        }
    }

    Benchmark(
        "event, tracing disabled: now and before (c92f6b1)",
        configuration: .init(metrics: [PerOperation.threadCPUPicoseconds, PerOperation.beforeThreadCPUPicoseconds])
    ) { benchmark in
        BeforeAfter.measure(
            benchmark, threads: 1, enabled: false,
            after: { emitEvents(signposter, count: $0) }, before: { emitEventsBefore(count: $0) })
    }

    let own = [PerOperation.threadCPUPicoseconds, PerOperation.wallPicoseconds]
    Benchmark("beginInterval + endInterval, 1 thread", configuration: .init(metrics: own)) { benchmark in
        Tracer.enable()
        defer { Tracer.disable() }
        PerOperation.record(
            benchmark, ConcurrentThreads.run(threads: 1, count: benchmark.scaledIterations.count) { intervals(signposter, count: $0) })
    }

    Benchmark("beginInterval, tracing disabled", configuration: .init(metrics: own)) { benchmark in
        Tracer.disable()
        PerOperation.record(
            benchmark, ConcurrentThreads.run(threads: 1, count: benchmark.scaledIterations.count) { beginIntervals(signposter, count: $0) })
    }
}

/// Begins and ends `count` intervals.
@inline(never)
func intervals(_ signposter: Signposter, count: Int) {
    for _ in 0..<count {
        let state = signposter.beginInterval("interval")
        signposter.endInterval("interval", state)
    }
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

/// Records `count` events (not inlined into the benchmark closure, so every
/// thread runs the same code).
@inline(never)
func emitEvents(_ signposter: Signposter, count: Int) {
    for _ in 0..<count {
        signposter.emitEvent("event")
    }
}

/// Records `count` events into the c92f6b1 ring, as `emitEvent` did then:
/// the StaticString's address as the name, the signposter's category.
@inline(never)
func emitEventsBefore(count: Int) {
    let name: StaticString = "event"
    for _ in 0..<count {
        lpb_record(UInt8(LPB_KIND_EVENT), UInt64(UInt(bitPattern: name.utf8Start)), 0, 0, 0, 1)
    }
}

/// Begins `count` intervals and keeps their ids (the states are used, but
/// not through a call per state as `blackHole` is).
@inline(never)
func beginIntervals(_ signposter: Signposter, count: Int) {
    var ids: UInt64 = 0
    for _ in 0..<count {
        ids &+= signposter.beginInterval("interval").id.rawValue
    }
    blackHole(ids)
}
