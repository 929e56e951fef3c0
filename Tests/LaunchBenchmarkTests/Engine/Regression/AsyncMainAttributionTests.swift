import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// Attribution and explain on a server with an async main
/// (lp-sample-async-server), whose launch runs on the cooperative pool: the
/// main thread records launch complete but does none of the work.
@Suite("Attribution and explain on an async main", .serialized)
struct AsyncMainAttributionTests {
    func server(_ name: String, slowRouterMilliseconds: Int = 0) throws -> LaunchTarget {
        LaunchTarget(
            name: name, arguments: [try Products.path("lp-sample-async-server")],
            environment: slowRouterMilliseconds > 0 ? ["LP_SAMPLE_SLOW_ROUTER_MS": "\(slowRouterMilliseconds)"] : [:],
            ready: .tracer)
    }

    func results(_ targets: [LaunchTarget], runs: Int) async throws -> [BenchmarkResult] {
        let session = BenchmarkSession(targets: targets, warmup: 2, stopping: .fixed(runs), settings: BenchmarkSettings())
        let results = try await session.run().document.results
        for result in results {
            try #require(result.runs.allSatisfy { $0.exit.isSuccess }, "\(result.label): \(result.runs.map(\.exit))")
            try #require(result.runs.allSatisfy { $0.intervals != nil }, "\(result.label): runs were not traced")
        }
        return results
    }

    @Test("15 ms of CPU inside 'build router' on a pool thread: named on the launch path, on CPU, with most of the change")
    func injectedCPUWorkOnThePool() async throws {
        let results = try await results([try server("before"), try server("after", slowRouterMilliseconds: 15)], runs: 20)
        let attribution = try #require(LaunchAttribution.attribute(baseline: results[0], current: results[1]))
        let why = attribution.summaryLines
        let first = try #require(attribution.countedContributors.first, "\(why)")
        #expect(first.name == "interval 'build router' (launch path)", "\(why)")
        #expect(first.share > 0.6, "build router explains \(first.share) of the change: \(why)")
        #expect(first.change > 10_000_000 && first.changeLow > 0, "\(first.change)")
        // On CPU, measured on the process (the work ran on the pool, not on the main thread).
        #expect(attribution.offCPUIsMainThread == false)
        // The CPU time grew by the work injected; on a loaded machine the
        // wall time it adds can be more (the rest is then off CPU, runnable).
        let cpu = try #require(attribution.cpuChange)
        #expect(cpu > 10_000_000 && cpu < 25_000_000, "the 15 ms of work were on CPU: CPU +\(cpu) ns")
        // Per step, from the pool thread's own CPU clock: the 15 ms injected
        // are on CPU whatever the load (a busy machine adds runnable time,
        // which is off CPU).
        let onCPU = try #require(first.onCPUChange, "build router's thread CPU time is known: \(why)")
        #expect(onCPU > 12_000_000 && onCPU < 20_000_000, "\(onCPU)")
        let step = try #require(first.cpuSplit)
        #expect(step.onCPU > 12_000_000, "on CPU \(step.onCPU) of \(first.change)")
        let split = try #require(why.first { $0.contains("in the named steps of the launch path") }, "\(why)")
        #expect(split.contains(" off CPU "), "\(split)")
        try AttributionTests.expectAddsUp(attribution)
        // Consistent: the counted parts and the rest add up to the change, and
        // nothing says main thread or other threads.
        let counted = attribution.countedContributors.reduce(0) { $0 + $1.change }
        let unexplained = try #require(attribution.unexplained)
        #expect(abs(counted + unexplained - attribution.totalChange) < 1, "\(counted) + \(unexplained) ≠ \(attribution.totalChange)")
        #expect(!why.contains { $0.contains("main thread") || $0.contains("other threads") }, "\(why)")
        // A phase after main overlaps the intervals and is never named. One
        // before main may be: it is apart from them (in CI, under load,
        // spawn → process entry came out +2.98 ms, p = 0.0028, and was).
        let afterMain = attribution.phases.filter { $0.isPreMain != true }.map(\.name)
        #expect(afterMain.contains { $0.hasPrefix("main → ") }, "\(afterMain)")
        #expect(!why.contains { line in afterMain.contains { line.contains($0) } }, "a phase after main is named: \(why)")
        // Awaited work is on the path.
        let names = Set(attribution.intervals.map(\.name))
        #expect(names.contains("interval 'load config' (launch path)"), "\(names)")
    }

    @Test("explain with a trace of the async server: the critical path crosses to the pool, and no main-thread waiting")
    func explainFindsThePathOnThePool() async throws {
        let scratch = try ScratchDirectory()
        let recorded = try TraceRecorder(output: .discard, probe: .tracer).record(
            try server("slow", slowRouterMilliseconds: 15), to: scratch.file("server.lptrace"))
        let path = try #require(LaunchCriticalPath(trace: recorded.trace))
        // A struct's `static func main() async` is not on the main actor: it
        // runs on the pool too, and launch complete is recorded there.
        #expect(path.endThreadID != recorded.trace.header.pid, "launch complete on thread \(path.endThreadID)")
        let leaves = path.leaves.map(\.interval.name)
        // The walk takes the interval that ended last before a step began
        // (it cannot see which task awaited which: LaunchCriticalPath). So
        // 'build router' follows 'load config', unless a busy machine ran
        // the detached 'warm cache' to its end between the two: then that
        // ended last, and the walk names it, as its rule says.
        let intervals = recorded.trace.pairIntervals()
        try #require((intervals.slices + intervals.asyncIntervals).contains { $0.name == "warm cache" }, "no 'warm cache'")
        let before = try #require(AsyncSamplePathOrder(trace: recorded.trace), "no 'load config' or 'build router'").beforeRouter
        #expect(Array(leaves.suffix(2)) == [before, "build router"], "\(leaves)")
        #expect(path.leaves.allSatisfy { $0.interval.beginThreadID != recorded.trace.header.pid }, "the work ran on the pool")
        let result = try #require(try await results([try server("slow", slowRouterMilliseconds: 15)], runs: 3).first)
        let insights = LaunchInsights.insights(for: result, trace: recorded.trace)
        let critical = try #require(insights.first { $0.area == .criticalPath }, "\(insights.map(\.finding))")
        #expect(critical.finding.contains(before) && critical.finding.contains("build router"), "\(critical.finding)")
        #expect(critical.cause.hasPrefix("'build router' is the largest step on the path"), "\(critical.cause)")
        #expect(critical.cause.contains("of it on CPU"), "the pool thread's CPU time inside it: \(critical.cause)")
        #expect(!insights.contains { $0.finding.contains("the main thread ran") }, "\(insights.map(\.finding))")
        if !leaves.contains("warm cache") {
            let off = try #require(insights.first { $0.area == .otherThreads }, "\(insights.map(\.finding))")
            #expect(off.finding.contains("'warm cache'"), "\(off.finding)")
        }
    }
}
