import ArgumentParser
import Foundation
import LaunchProfHarness

/// `launchprof run --profile`: once measuring is done, each target's launch
/// is sampled in runs of its own (so sampling never touches the measured
/// runs), through the preload library, with the target's own environment,
/// working directory and ready probe; the samples of all its runs make one
/// profile, written as a flame graph, folded stacks and a speedscope file.
struct RunProfiles {
    var options: RunOptions
    var plan: BenchmarkPlan

    var directory: String { options.profileDir ?? ".launchprof/profiles" }

    /// Creates the profile directory before anything is measured: a bad
    /// path should not cost a whole benchmark. Exits with 2 if it cannot.
    func prepare() throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            Output.error("--profile-dir: cannot create '\(directory)': \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }

    /// Runs the profiles; prints one summary per target on standard error.
    /// Throws ExitCode(130) when interrupted, ExitCode(3) after all targets
    /// were tried if one could not be profiled.
    func run() throws {
        try prepare()  // it may have gone while measuring
        let preload = ProfileRecorder.defaultPreloadLibrary()
        if preload == nil {
            Output.note("liblaunchprof-preload.so is not beside launchprof: only targets that link LaunchProf will be profiled (set LAUNCHPROF_PRELOAD_LIBRARY)")
        }
        fflush(nil)  // the measured report first, then the profiles
        let interrupt = try InterruptMonitor()
        defer { interrupt.stop() }
        let runs = options.profileRuns ?? 10
        var failed: [String] = []
        let line = ProgressLine()
        let names = ProfileFileName.unique(plan.targets.map(\.name))
        for (target, base) in zip(plan.targets, names) {
            let recorder = ProfileRecorder(
                rate: options.profileHz ?? 1000, timeout: plan.timeout(of: target) ?? RunOptions.seconds(options.timeout ?? 60),
                output: .discard, preloadLibrary: preload, runs: runs, probe: target.ready,
                grace: RunOptions.seconds(options.grace), interrupt: interrupt)
            do {
                let profiled = try recorder.profile(target, directory: directory, base: base) { index in
                    line.update(ProgressLine.Status(label: "\(target.name) (profile)", run: index, total: runs, median: nil))
                }
                line.clear()
                Output.note(Self.summary(of: profiled, target: target.name))
            } catch {
                line.clear()
                if case .record(.interrupted) = error {
                    Output.error("interrupted while profiling '\(target.name)'")
                    throw ExitCode(130)
                }
                Output.error("cannot profile '\(target.name)': \(error)")
                failed.append(target.name)
            }
        }
        if !failed.isEmpty { throw ExitCode(3) }
    }

    /// "profile of NAME: N samples from K launches; hottest (self): F 61.0%, …; flame graph PATH".
    static func summary(of profiled: ProfileRecorder.Profiled, target: String) -> String {
        let profile = profiled.profile
        let total = max(profile.totalWeight, 1)
        let hottest = ProfileSummary.hottest(profile, limit: 3).map { frame, weight in
            "\(FunctionName.short(frame.name)) \(String(format: "%.1f%%", Double(weight) / Double(total) * 100))"
        }
        var text = "profile of '\(target)': \(profile.stacks.count) samples from \(profile.runCount) launch\(profile.runCount == 1 ? "" : "es")"
        if !hottest.isEmpty { text += "; hottest (self): " + hottest.joined(separator: ", ") }
        if profile.stacks.isEmpty {
            text += " (in each launch the sampled window, from the constructors to launch complete or exit, used less CPU than one tick of the kernel's timer; the loader's work before it is never sampled: see docs/sampling.md)"
        }
        text += "\n  flame graph \(profiled.outputs.flameGraph)\n  speedscope  \(profiled.outputs.speedscope)\n  folded      \(profiled.outputs.folded)"
        for warning in profile.warnings { text += "\n  warning: \(warning)" }
        return text
    }
}
