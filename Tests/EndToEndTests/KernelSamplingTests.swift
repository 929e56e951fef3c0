import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof profile` with the kernel sampling (the default on the CPU
/// clock): the spawner's per-CPU perf events, inherited by the launched
/// tree, each sample a copy of the user registers and stack, unwound after
/// the run — on a LaunchProf program, a C program with no trace of its own,
/// a program stopped at a port probe, and a tree of processes.
@Suite(.serialized)
struct KernelSamplingTests {
    static var allowed: Bool { SamplingMethod.kernelUnavailableReason() == nil }

    /// The Swift sample app: its own trace (events, launch complete) with
    /// the kernel's samples added, stopped at launch complete, every thread
    /// sampled, stacks walked down to the thread's start, and about one
    /// stack per period of the CPU time the events counted.
    @Test(.enabled(if: allowed, "perf events are not allowed here"))
    func launchProfProgramKeepsItsTraceAndGetsTheKernelsStacks() throws {
        let profiled = try ProfiledRun.profile(
            // 600 ms of the hotspot's own CPU, so the index and the workers
            // (every thread is sampled), whose CPU grows under load, cannot
            // outweigh it.
            [try Products.path("lp-sample-app"), "--hot-ms", "600"], name: "kapp", options: ["--ready", "tracer"])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        #expect(sampling.timerMode == .kernel)
        let complete = try #require(profiled.trace.header.launchCompleteNanoseconds)
        #expect(!profiled.trace.events.isEmpty, "the program's own trace was kept")
        #expect(sampling.samples.allSatisfy { $0.timestamp <= complete })
        #expect(sampling.samples.allSatisfy { $0.weight == 1 && $0.handlerNanoseconds == 0 })
        #expect(profiled.leafShare("SampleApp.computeLaunchHotspot(milliseconds: Swift.Int)") > 0.5, "\(profiled.folded)")
        #expect(Set(sampling.samples.map(\.threadID)).count >= 2, "the main thread and the workers")
        // Walked to the bottom: the main thread's _start, a thread's clone3.
        let bottoms = profiled.folded.filter { ["_start", "clone3", "start_thread"].contains($0.frames.first ?? "") }
        let total = profiled.folded.reduce(UInt64(0)) { $0 + $1.weight }
        #expect(Double(bottoms.reduce(UInt64(0)) { $0 + $1.weight }) >= 0.9 * Double(total), "\(profiled.foldedText)")
        let periods = Double(sampling.sampledCPUMicroseconds) * Double(sampling.rate) / 1e6
        #expect(periods > 250, "the events counted the launch's CPU time: \(sampling.sampledCPUMicroseconds) µs")
        #expect(Double(sampling.samples.count) >= 0.9 * periods, "\(sampling.samples.count) stacks for \(periods) periods")
        #expect(Double(sampling.samples.count) <= 1.02 * periods + 10, "\(sampling.samples.count) stacks for \(periods) periods")
        #expect(profiled.run.standardError.contains("walked after the launch"), "\(profiled.run.standardError)")
    }

    /// A C program that links nothing of ours and writes no trace:
    /// launchprof writes one of the samples alone, for the launched pid, with
    /// the program's module and build id, and no library was preloaded.
    @Test(.enabled(if: allowed, "perf events are not allowed here"))
    func programWithoutLaunchProfGetsATraceOfItsSamples() throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.hot, name: "khot")
        defer { unlink(binary) }
        let profiled = try ProfiledRun.profile([binary], name: "khot")
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        #expect(sampling.timerMode == .kernel)
        #expect(profiled.trace.events.isEmpty)
        #expect(profiled.leafShare("burn_hot_function") > 0.6, "\(profiled.folded)")
        #expect(profiled.folded.contains { $0.frames.first == "_start" && $0.frames.contains("main") })
        #expect(sampling.modules.contains { $0.name == URL(fileURLWithPath: binary).lastPathComponent && !$0.buildID.isEmpty })
        #expect(!sampling.modules.contains { $0.name.contains("preload") }, "nothing was loaded into the program")
        #expect(sampling.samples.allSatisfy { $0.threadID == profiled.trace.header.pid })
    }

    /// A program without LaunchProf stopped at a port probe: the run does
    /// not wait for a trace it will never write (the grace period is 20 s
    /// here), and its samples up to ready are kept.
    @Test(.enabled(if: allowed, "perf events are not allowed here"))
    func portProbeOfAProgramWithoutATraceDoesNotWaitForOne() throws {
        let port = try LocalPort.free()
        let started = Date()
        let profiled = try ProfiledRun.profile(
            ["/usr/bin/python3", "-m", "http.server", String(port), "--bind", "127.0.0.1"], name: "kpy",
            options: ["--ready", "port:\(port)", "--grace", "20"])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        #expect(Date().timeIntervalSince(started) < 15, "no wait for a trace after ready")
        let sampling = try #require(profiled.trace.sampling)
        #expect(sampling.timerMode == .kernel)
        #expect(!sampling.samples.isEmpty)
        #expect(profiled.folded.contains { $0.frames.contains { $0.contains("Py") } }, "\(profiled.foldedText)")
    }

    /// A shell that runs the program as a child: the child's samples are
    /// kept (the events are inherited by the whole tree), with its module.
    @Test(.enabled(if: allowed, "perf events are not allowed here"))
    func childrenOfTheLaunchedProcessAreSampledToo() throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.hot, name: "ktree")
        defer { unlink(binary) }
        let profiled = try ProfiledRun.profile(["/bin/sh", "-c", "\(binary) >/dev/null; true"], name: "ktree")
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        #expect(profiled.leafShare("burn_hot_function") > 0.5, "\(profiled.folded)")
        let hot = sampling.samples.filter { !$0.frames.isEmpty }.map(\.threadID)
        #expect(hot.contains { $0 != profiled.trace.header.pid }, "the child's samples, on its own pid")
    }
}
