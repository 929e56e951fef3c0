import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof profile --sampler in-process` on real programs: the Swift
/// sample app (LaunchProf linked), C programs through
/// liblaunchprof-preload.so, many threads, and a launch that never
/// completes. The kernel's sampling (the default) is KernelSamplingTests'.
@Suite(.serialized)
struct ProfileCommandTests {
    func profile(_ command: [String], name: String, hz: Int = 1000, options: [String] = []) throws -> ProfiledRun {
        try ProfiledRun.profile(command, name: name, hz: hz, options: ["--sampler", "in-process"] + options)
    }

    @Test func swiftSampleAppHotFunctionIsTheTopFrameDemangled() throws {
        // Every thread is sampled here: the hotspot's 600 ms of its own CPU
        // against the index and the workers of a debug build, whose CPU grows
        // under load (at 300 ms, the share fell to 0.496 with another build
        // running).
        let profiled = try profile([try Products.path("lp-sample-app"), "--hot-ms", "600"], name: "app")
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        #expect(profiled.trace.header.launchCompleteNanoseconds != nil)
        // Sampling stopped at launch complete, and the events are there too:
        // LaunchProf wrote the trace, so the preload library stood down (had
        // it sampled as well, its own event-less trace would have been last).
        #expect(sampling.samples.allSatisfy { $0.timestamp <= profiled.trace.header.launchCompleteNanoseconds! })
        #expect(!profiled.trace.events.isEmpty)
        #expect(profiled.leafShare("SampleApp.computeLaunchHotspot(milliseconds: Swift.Int)") > 0.5, "\(profiled.folded)")
        #expect(!sampling.mainThreadOnly, "libunwind was preloaded, so every thread is sampled")
        #expect(sampling.threadsHooked, "the preload library's pthread_create hook armed LaunchProf's threads: no helper thread")
        let svg = try String(contentsOfFile: "\(profiled.directory)/app.svg", encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("computeLaunchHotspot") && svg.contains("function search()"))
        let speedscope =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(profiled.directory)/app.speedscope.json"))) as? [String: Any]
        let profiles = try #require(speedscope?["profiles"] as? [[String: Any]])
        #expect(profiles.count >= 2, "the main thread and worker threads")
        #expect(profiles.allSatisfy { $0["type"] as? String == "sampled" })

        // The Chrome export puts the samples on the threads' tracks, beside the milestones.
        let export = try CommandRun.run(
            try Products.path("launchprof"), ["export", "\(profiled.directory)/app.lptrace", "--format", "chrome"])
        #expect(export.status == 0, "\(export.standardError)")
        let chrome = try JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8)) as? [String: Any]
        let events = try #require(chrome?["traceEvents"] as? [[String: Any]])
        let samples = events.filter { $0["cat"] as? String == "launchprof/samples" }
        // One instant per sample, and one more beside each that a busy
        // machine made stand for periods without a stack.
        let merged = sampling.samples.count { $0.merged && $0.weight > 1 }
        #expect(samples.count == sampling.samples.count + merged)
        #expect(samples.contains { ($0["name"] as? String)?.contains("computeLaunchHotspot") == true })
        #expect(events.contains { $0["name"] as? String == "index ready" })
    }

    /// Without the preload library, LaunchProf dlopens libunwind itself; its
    /// thread-local data is then not static TLS, so only the warmed main
    /// thread is sampled, and the trace says so.
    @Test func withoutThePreloadLibraryLaunchProfSamplesItsMainThread() throws {
        // 500 ms of the hotspot's own CPU against the rest of a debug
        // build's launch, whose CPU time grows when other tests load the
        // machine (at 200 ms, the hotspot's share fell to 0.44 under load).
        let profiled = try profile([try Products.path("lp-sample-app"), "--hot-ms", "500"], name: "main", options: ["--no-preload"])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        #expect(sampling.mainThreadOnly)
        #expect(Set(sampling.samples.map(\.threadID)) == [profiled.trace.header.pid])
        #expect(profiled.leafShare("computeLaunchHotspot") > 0.5, "\(profiled.folded)")
    }

    @Test func cProgramThroughThePreloadLibrary() throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.hot, name: "hot")
        defer { unlink(binary) }
        let profiled = try profile([binary], name: "hot")
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        #expect(profiled.leafShare("burn_hot_function") > 0.6, "\(profiled.folded)")
        #expect(profiled.folded.contains { $0.frames.contains("main") })
        let sampling = try #require(profiled.trace.sampling)
        #expect(sampling.modules.contains { $0.name == URL(fileURLWithPath: binary).lastPathComponent && !$0.buildID.isEmpty })
    }

    @Test func everyBusyThreadIsSampled() throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.threads, name: "threads")
        defer { unlink(binary) }
        let profiled = try profile([binary], name: "threads")
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        let profile = try Symbolizer().symbolize(profiled.trace, name: "threads")
        for function in ["busy_thread_alpha", "busy_thread_beta", "busy_thread_gamma"] {
            // Each function's samples come from one thread of its own.
            let threads = Set(profile.stacks.filter { $0.frames.contains { profile.frames[$0].name == function } }.map(\.threadID))
            #expect(threads.count == 1, "\(function) ran on one thread: \(threads)")
            #expect(!threads.contains(profiled.trace.header.pid), "not on the main thread")
            #expect(profiled.folded.contains { $0.frames.contains(function) && $0.weight >= 5 }, "\(function): \(profiled.folded)")
        }
        #expect(Set(sampling.samples.map(\.threadID)).count >= 3)
        #expect(sampling.threadsHooked)
        #expect(sampling.threadNames.count >= 4, "the main thread and three workers were armed")
    }

    @Test func aLaunchThatNeverCompletesStillYieldsItsSamples() throws {
        let profiled = try profile(
            [try Products.path("lp-sample-app"), "--hot-ms", "500", "--exit-before-ready"], name: "early")
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        #expect(profiled.trace.header.launchCompleteNanoseconds == nil)
        #expect(profiled.leafShare("computeLaunchHotspot") > 0.4, "\(profiled.folded)")
    }

    /// 10 kHz while threads start and exit, malloc runs on every thread and
    /// libraries are dlopen'ed and closed: no deadlock (the timeout would
    /// kill it), no crash, a readable trace, many times over.
    @Test func samplingAt10kHzThroughThreadChurnMallocAndDlopenNeverHangsOrCrashes() throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.stress, name: "stress")
        defer { unlink(binary) }
        for round in 0..<8 {
            let directory = Products.temporaryPath("stress")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = try CommandRun.run(
                try Products.path("launchprof"),
                [
                    "profile", "--sampler", "in-process", "--quiet", "--runs", "1", "--hz", "10000", "--timeout", "30", "--output-dir",
                    directory,
                    "--name", "s", "--", binary, "1",
                ],
                timeout: 60)
            #expect(run.status == 0, "round \(round): \(run.standardError)")
            let trace = try TraceReader.read(path: "\(directory)/s.lptrace")
            #expect((trace.sampling?.samples.count ?? 0) > 0, "round \(round)")
        }
    }

    /// With no sampling flag, `profile` takes `run --profile`'s defaults
    /// (one option group, SamplingOptions): ten launches merged into one
    /// profile, written under .launchprof/profiles of the working directory.
    @Test func withoutFlagsTenLaunchesAreMergedIntoLaunchprofProfiles() throws {
        let directory = Products.temporaryPath("profile-defaults")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try CommandRun.run(
            try Products.path("launchprof"),
            [
                "profile", "--sampler", "in-process", "--quiet", "--", try Products.path("lp-sample-app"), "--hot-ms", "30",
                "--words", "2000", "--workers", "1",
            ],
            workingDirectory: directory)
        #expect(run.status == 0, "\(run.standardError)")
        let profiles = "\(directory)/.launchprof/profiles"
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: profiles)) ?? [])
        let traces = (1...10).map { "lp-sample-app-\($0).lptrace" }
        #expect(files.isSuperset(of: traces + ["lp-sample-app.folded", "lp-sample-app.svg"]), "\(files.sorted())")
        #expect(!files.contains("lp-sample-app-11.lptrace") && !files.contains("lp-sample-app.lptrace"), "\(files.sorted())")
        #expect(run.standardError.contains("from 10 launches"), "\(run.standardError)")
    }
}
