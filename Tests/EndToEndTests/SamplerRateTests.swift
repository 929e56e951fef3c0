import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// Every unit of weight in a profile is its own captured stack: the
/// sampler's perf events signal every period of a thread's CPU time, where
/// POSIX CPU-time timers fired only at the scheduler tick and handed the
/// periods in between to whatever stack came next (docs/sampling.md).
@Suite(.serialized)
struct SamplerRateTests {
    /// kernel.perf_event_paranoid: above 2, perf events are not allowed to
    /// an unprivileged process and the sampler falls back to POSIX timers.
    static var perfEventsAllowed: Bool {
        let text = (try? String(contentsOfFile: "/proc/sys/kernel/perf_event_paranoid", encoding: .utf8)) ?? ""
        return getuid() == 0 || (Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 4) <= 2
    }

    /// A CPU-bound C program at 4 kHz: one stack per period of the CPU time
    /// the threads' events counted, each of weight 1.
    @Test(
        .enabled(if: perfEventsAllowed, "perf events are not allowed here (kernel.perf_event_paranoid)"),
        arguments: [SamplingMethod.kernel, .inProcess])
    func atFourKilohertzEveryPeriodIsAStackOfItsOwn(method: SamplingMethod) throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.threads, name: "rate-threads")
        defer { unlink(binary) }
        let profiled = try ProfiledRun.profile([binary], name: "rate", hz: 4000, options: ["--sampler", method.rawValue])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        #expect(sampling.timerMode == (method == .kernel ? .kernel : .threadCPUEvent))
        #expect(sampling.samples.allSatisfy { $0.weight == 1 }, "no sample stands for periods it did not see")
        // Three threads of 150 ms each: about 1,800 periods at 4 kHz.
        let periods = Double(sampling.sampledCPUMicroseconds) * 4000 / 1e6
        #expect(periods > 1500, "the events counted the threads' CPU time: \(sampling.sampledCPUMicroseconds) µs")
        #expect(Double(sampling.samples.count) >= 0.9 * periods, "\(sampling.samples.count) stacks for \(periods) periods")
        #expect(Double(sampling.samples.count) <= 1.02 * periods + 10, "\(sampling.samples.count) stacks for \(periods) periods")
    }

    /// LAUNCHPROF_SAMPLE_TIMER=posix keeps the POSIX CPU-time timers (what
    /// the sampler falls back to where perf events are denied): they count
    /// no CPU time, and the trace says which timers ran. The program is run
    /// with the preload library directly: launchprof passes no LAUNCHPROF_
    /// variable of its own environment on.
    @Test func posixTimersAreTheFallbackAndSaySo() throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.hot, name: "rate-hot")
        defer { unlink(binary) }
        let path = Products.temporaryPath("posix.lptrace")
        defer { unlink(path) }
        let preload = Products.directory.appendingPathComponent("launchprof_launchprof.resources/liblaunchprof-preload.so").path
        let run = try CommandRun.run(
            binary, [],
            environment: [
                "LD_PRELOAD": preload, "LAUNCHPROF_SAMPLE_HZ": "4000", "LAUNCHPROF_SAMPLE_TIMER": "posix", "LAUNCHPROF_TRACE": path,
            ])
        try #require(run.status == 0, "\(run.standardError)")
        let sampling = try #require(try TraceReader.read(path: path).sampling)
        #expect(sampling.timerMode == .threadCPUTime)
        #expect(sampling.sampledCPUMicroseconds == 0)
        #expect(!sampling.samples.isEmpty)
    }
}
