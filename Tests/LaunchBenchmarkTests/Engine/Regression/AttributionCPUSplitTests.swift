import LaunchBenchmark
import Testing

/// The Why's split into on CPU and off CPU, on scripted runs (exact
/// figures): each named step's own split, a step whose CPU time is unknown
/// said so, and every figure adding up to the change.
@Suite struct AttributionCPUSplitTests {
    /// 20 runs whose launch path is 'parse' (on one thread, its CPU time
    /// known) and 'fetch' (begun and ended on different threads: unknown),
    /// with `extra` nanoseconds of wall time in no step.
    func result(_ name: String, parse: UInt64, parseCPU: UInt64, fetch: UInt64, extra: UInt64) -> BenchmarkResult {
        let runs = (0..<20).map { index in
            let jitter = UInt64(index % 5) * 10_000
            var parsing = IntervalTime(name: "parse", thread: "path", nanoseconds: parse + jitter, count: 1)
            parsing.onCPU = parseCPU + jitter / 2
            let fetching = IntervalTime(name: "fetch", thread: "path", nanoseconds: fetch + jitter, count: 1)
            let ready = 1_000_000 + parse + fetch + extra + 3 * jitter
            return RunMeasurement(
                index: index, wallToExit: ready, wallToReady: ready, processEntry: 400_000, main: 500_000, userCPU: 1_000_000,
                exit: .exited(0), intervals: [parsing, fetching])
        }
        return BenchmarkResult(target: LaunchTarget(name: name, arguments: ["app"]), mode: .warm, runs: runs)
    }

    @Test("a step that grew by CPU work, one whose CPU time is unknown, and a rest: named, said unknown, adding up")
    func splitAddsUp() throws {
        let before = result("app", parse: 10_000_000, parseCPU: 9_000_000, fetch: 5_000_000, extra: 0)
        // parse: +10 ms of which +8 ms on CPU; fetch: +5 ms; +3 ms in no step.
        let after = result("app", parse: 20_000_000, parseCPU: 17_000_000, fetch: 10_000_000, extra: 3_000_000)
        let attribution = try #require(LaunchAttribution.attribute(baseline: before, current: after))
        let lines = attribution.summaryLines
        let parse = try #require(attribution.intervals.first { $0.name.contains("'parse'") }, "\(lines)")
        let split = try #require(parse.cpuSplit)
        #expect(abs(split.onCPU - 8_000_000) < 1 && abs(split.offCPU - 2_000_000) < 1, "\(split)")
        let fetch = try #require(attribution.intervals.first { $0.name.contains("'fetch'") })
        #expect(fetch.cpuSplit == nil && fetch.isContributor)
        #expect(lines.contains { $0.contains("'parse'") && $0.contains(": +8.00 ms on CPU, +2.00 ms off CPU") }, "\(lines)")
        #expect(lines.contains { $0.contains("'fetch'") && $0.hasSuffix(": on or off CPU unknown") }, "\(lines)")
        let whole = try #require(attribution.pathCPUSplit)
        #expect(abs(whole.unknown - 5_000_000) < 1 && abs(whole.unexplained - 3_000_000) < 1, "\(whole)")
        let sum = whole.onCPU + whole.offCPU + whole.unknown + whole.preMain + whole.unexplained
        #expect(abs(sum - attribution.totalChange) < 1, "\(sum) vs \(attribution.totalChange)")
        let line = try #require(lines.first { $0.contains("in the named steps of the launch path") }, "\(lines)")
        #expect(line.contains("of +18.0 ms, +8.00 ms was work on CPU and +2.00 ms off CPU"), "\(line)")
        #expect(line.contains("+5.00 ms in steps whose CPU time is unknown") && line.hasSuffix("+3.00 ms in no named part"), "\(line)")
    }

    @Test("a step whose CPU time grew while its wall time, spread by a busy machine, did not: said by its CPU time")
    func wallUnresolved() throws {
        // parse: +8 ms of its thread's CPU time and its wall time unchanged
        // (the machine's other programs took less of the cores in the later
        // runs); 1 ms less in no step.
        let before = result("app", parse: 20_000_000, parseCPU: 9_000_000, fetch: 5_000_000, extra: 1_000_000)
        let after = result("app", parse: 20_000_000, parseCPU: 17_000_000, fetch: 5_000_000, extra: 0)
        let attribution = try #require(LaunchAttribution.attribute(baseline: before, current: after))
        let lines = attribution.summaryLines
        let parse = try #require(attribution.contributors.first, "\(lines)")
        #expect(parse.name == "interval 'parse' (launch path)" && parse.isWallUnresolved, "\(lines)")
        #expect(
            lines.first
                == "app (warm): interval 'parse' (launch path): its threads' CPU time +8.00 ms (p < 0.0001); its wall time "
                + "+0 ns (p = 1.0000) did not resolve the change (other programs' share of the cores spreads wall times, "
                + "not CPU times)", "\(lines)")
        // An improvement of the whole is split too, and still adds up.
        let line = try #require(lines.first { $0.contains("in the named steps of the launch path") }, "\(lines)")
        #expect(line.contains("of -1.00 ms, +0 ns was work on CPU and +0 ns off CPU"), "\(line)")
        #expect(line.hasSuffix("; -1.00 ms in no named part"), "\(line)")
    }

    @Test("runs traced without the threads' CPU times: no per-step split, the whole change split by the process's CPU time")
    func olderTraces() throws {
        var before = result("app", parse: 10_000_000, parseCPU: 9_000_000, fetch: 5_000_000, extra: 0)
        var after = result("app", parse: 20_000_000, parseCPU: 17_000_000, fetch: 5_000_000, extra: 0)
        func withoutCPU(_ interval: IntervalTime) -> IntervalTime {
            var interval = interval
            interval.onCPU = nil
            return interval
        }
        for index in before.runs.indices { before.runs[index].intervals = before.runs[index].intervals?.map(withoutCPU) }
        for index in after.runs.indices { after.runs[index].intervals = after.runs[index].intervals?.map(withoutCPU) }
        let attribution = try #require(LaunchAttribution.attribute(baseline: before, current: after))
        #expect(attribution.pathCPUSplit == nil)
        let lines = attribution.summaryLines
        #expect(!lines.contains { $0.contains("unknown") || $0.contains("named steps") }, "\(lines)")
        #expect(lines.contains { $0.contains("(the process's CPU time") }, "\(lines)")
    }
}
