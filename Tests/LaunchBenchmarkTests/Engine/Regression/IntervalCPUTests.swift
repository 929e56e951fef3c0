import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// On CPU or off CPU per interval, recorded by the real tracer in real
/// processes: the thread CPU time each interval's begin and end carry.
/// Thread CPU time does not depend on the machine's load, so the checks on
/// the CPU work injected hold however busy the machine is; the waits are
/// sleeps and blocking reads, which no load turns into CPU time.
@Suite("Thread CPU time of intervals", .serialized)
struct IntervalCPUTests {
    func record(_ target: LaunchTarget) throws -> Trace {
        let scratch = try ScratchDirectory()
        return try TraceRecorder(output: .discard, probe: .tracer).record(target, to: scratch.file("run.lptrace")).trace
    }

    func interval(_ name: String, in trace: Trace) throws -> TraceInterval {
        let paired = trace.pairIntervals()
        return try #require((paired.slices + paired.asyncIntervals).first { $0.name == name }, "no interval '\(name)'")
    }

    @Test("40 ms of CPU work injected in 'build index': its thread was on CPU for it")
    func cpuWorkIsOnCPU() throws {
        let trace = try record(
            LaunchTarget(
                name: "slow index",
                arguments: [try Products.path("lp-sample-app"), "--words", "20000", "--workers", "2"],
                environment: ["LP_SAMPLE_SLOW_INDEX_MS": "40"], ready: .tracer))
        let index = try interval("build index", in: trace)
        let onCPU = try #require(index.onCPU, "the begin and end carry the thread's CPU time")
        // The spin counts process CPU time (clock(3)); the workers' share of it is not this thread's.
        #expect(onCPU > 20_000_000, "on CPU \(onCPU) ns of \(index.duration)")
        #expect(try #require(index.offCPU) + onCPU == index.duration)
    }

    @Test("'read config' blocked 60 ms in read(2) for another thread's answer: off CPU")
    func blockingWaitIsOffCPU() throws {
        let trace = try record(
            LaunchTarget(
                name: "waiting", arguments: [try Products.path("lp-sample-app"), "--words", "2000", "--workers", "1"],
                environment: ["LP_SAMPLE_WAIT_MS": "60"], ready: .tracer))
        let read = try interval("read config", in: trace)
        let offCPU = try #require(read.offCPU)
        #expect(offCPU > 55_000_000, "off CPU \(offCPU) ns of \(read.duration)")
        #expect(try #require(read.onCPU) < 5_000_000)
    }

    @Test("the async server: 'build router' ran on a pool thread, on the launch path, on CPU")
    func asyncServerOnThePool() throws {
        let trace = try record(
            LaunchTarget(
                name: "async", arguments: [try Products.path("lp-sample-async-server")],
                environment: ["LP_SAMPLE_SLOW_ROUTER_MS": "15"], ready: .tracer))
        let path = try #require(LaunchCriticalPath(trace: trace))
        let step = try #require(path.leaves.first { $0.interval.name == "build router" }, "\(path.leaves.map(\.interval.name))")
        #expect(step.interval.beginThreadID != trace.header.pid, "a pool thread")
        // 3 ms of its own and 15 injected, counted on the thread's CPU clock by the sample itself.
        let onCPU = try #require(step.interval.onCPU)
        #expect(onCPU >= 17_000_000 && onCPU <= step.interval.duration, "on CPU \(onCPU) ns of \(step.interval.duration)")
    }
}
