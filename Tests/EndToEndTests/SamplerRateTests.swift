import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// Every unit of weight in a profile is its own captured stack or said to
/// be none: the sampler's perf events signal every period of a thread's CPU
/// time, where POSIX CPU-time timers fired only at the scheduler tick and
/// handed the periods in between to whatever stack came next; a signal the
/// kernel merged weighs the periods its event counted, kept under a marker
/// of their own (docs/sampling.md).
@Suite(.serialized)
struct SamplerRateTests {
    /// kernel.perf_event_paranoid: above 2, perf events are not allowed to
    /// an unprivileged process and the sampler falls back to POSIX timers.
    static var perfEventsAllowed: Bool {
        let text = (try? String(contentsOfFile: "/proc/sys/kernel/perf_event_paranoid", encoding: .utf8)) ?? ""
        return getuid() == 0 || (Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 4) <= 2
    }

    /// A CPU-bound C program at 4 kHz: a stack for nearly every period of
    /// the CPU time the threads' events counted (the POSIX timers gave one
    /// in 16), and every period counted. The kernel's samples are each of
    /// weight 1. In the program a signal that came while the previous one
    /// was pending is merged by the kernel (SIGPROF does not queue): a busy
    /// machine did that to a quarter of them once, so the in-process sampler's
    /// sample weighs every period its event counted since the thread's
    /// previous one, and the periods merged into it are kept under a marker
    /// of their own.
    @Test(
        .enabled(if: perfEventsAllowed, "perf events are not allowed here (kernel.perf_event_paranoid)"),
        arguments: [SamplingMethod.kernel, .inProcess])
    func atFourKilohertzEveryPeriodIsAStackOrCounted(method: SamplingMethod) throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.threads, name: "rate-threads")
        defer { unlink(binary) }
        let profiled = try ProfiledRun.profile([binary], name: "rate", hz: 4000, options: ["--sampler", method.rawValue])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        #expect(sampling.timerMode == (method == .kernel ? .kernel : .threadCPUEvent))
        #expect(sampling.samples.allSatisfy { $0.weight == 1 || $0.merged }, "no sample stands for periods it did not see but a merged one")
        #expect(method == .inProcess || sampling.samples.allSatisfy { !$0.merged })
        // Three threads of 150 ms each: about 1,800 periods at 4 kHz.
        let periods = Double(sampling.sampledCPUMicroseconds) * 4000 / 1e6
        let weight = Double(sampling.samples.reduce(UInt64(0)) { $0 + UInt64($1.weight) })
        let merged = sampling.samples.filter(\.merged)
        let counts =
            "\(sampling.samples.count) stacks (\(merged.count) merged, weight \(Int(weight))) for \(periods) periods, \(sampling.lost) lost"
        #expect(periods > 1500, "the events counted the threads' CPU time: \(sampling.sampledCPUMicroseconds) µs")
        #expect(Double(sampling.samples.count) >= (method == .kernel ? 0.9 : 0.5) * periods, "\(counts)")
        #expect(weight >= 0.95 * periods, "every period is counted: \(counts)")
        #expect(weight <= 1.02 * periods + 10, "\(counts)")
    }

    /// A thread that computes with SIGPROF blocked: every period's signal
    /// meanwhile is merged into one, and the in-process sampler's sample when
    /// it is let through weighs every period its event counted. The profile
    /// keeps the stack for one and the others under "[periods without a
    /// stack]", never under a function it did not see them in.
    @Test(.enabled(if: perfEventsAllowed, "perf events are not allowed here (kernel.perf_event_paranoid)"))
    func periodsMergedWhileTheSignalWasBlockedAreCountedWithoutAStack() throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.blocked, name: "rate-blocked")
        defer { unlink(binary) }
        let profiled = try ProfiledRun.profile([binary], name: "blocked", hz: 4000, options: ["--sampler", "in-process"])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        try #require(sampling.timerMode == .threadCPUEvent)
        // 200 ms of CPU blocked 5 ms at a time: about 800 periods, 40 signals.
        let periods = Double(sampling.sampledCPUMicroseconds) * 4000 / 1e6
        let weight = Double(sampling.samples.reduce(UInt64(0)) { $0 + UInt64($1.weight) })
        let merged = sampling.samples.filter(\.merged)
        let counts = "\(sampling.samples.count) stacks (\(merged.count) merged, weight \(Int(weight))) for \(periods) periods"
        #expect(periods > 700, "\(sampling.sampledCPUMicroseconds) µs")
        #expect(Double(sampling.samples.count) < 0.25 * periods, "the signals were merged: \(counts)")
        #expect(merged.count >= 30 && merged.allSatisfy { $0.weight > 1 }, "\(counts)")
        #expect(weight >= 0.95 * periods && weight <= 1.02 * periods + 10, "every period is counted: \(counts)")
        let unstacked = merged.reduce(UInt64(0)) { $0 + UInt64($1.weight - 1) }
        let marker = profiled.folded.filter { $0.frames.first == "[periods without a stack]" }
        #expect(marker.allSatisfy { $0.frames.count == 1 }, "the periods without a stack are under no function")
        #expect(marker.reduce(UInt64(0)) { $0 + $1.weight } == unstacked, "\(marker) for \(unstacked) periods")
        // The Chrome export: beside each merged sample's instant, one of the
        // periods it stood for without a stack.
        let export = try CommandRun.run(
            try Products.path("launchprof"), ["export", "\(profiled.directory)/blocked.lptrace", "--format", "chrome"])
        try #require(export.status == 0, "\(export.standardError)")
        let chrome = try JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8)) as? [String: Any]
        let events = try #require(chrome?["traceEvents"] as? [[String: Any]])
        let instants = events.filter { $0["cat"] as? String == "launchprof/samples" }
        let unstackedInstants = instants.filter { $0["name"] as? String == "[periods without a stack]" }
        #expect(instants.count == sampling.samples.count + merged.count)
        #expect(unstackedInstants.count == merged.count)
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
