import ArgumentParser
import Foundation
import LaunchBenchmark

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

    /// What profiling gave: each profiled target's profile (in plan order),
    /// the targets that could not be profiled, and whether Ctrl-C ended it.
    struct Outcome {
        var profiles: [(target: String, profiled: ProfileRecorder.Profiled)] = []
        var failed: [String] = []
        var interrupted = false

        /// For the results document: what was sampled and where the files are.
        var records: [ProfileRecord] {
            profiles.map { target, profiled in
                ProfileRecord(
                    target: target, profile: profiled.profile, flameGraph: profiled.outputs.flameGraph,
                    speedscope: profiled.outputs.speedscope, folded: profiled.outputs.folded)
            }
        }

        /// For the HTML report's flame graphs.
        var byTarget: [String: SymbolizedProfile] {
            Dictionary(profiles.map { ($0.target, $0.profiled.profile) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Profiles each target in turn; prints one summary per target on
    /// standard error. A target that cannot be profiled is reported and
    /// the others are still tried; Ctrl-C stops at once, keeping what was done.
    func run() throws -> Outcome {
        try prepare()  // it may have gone while measuring
        let preload = ProfileRecorder.defaultPreloadLibrary()
        if preload == nil {
            Output.note("liblaunchprof-preload.so is not beside launchprof: only targets that link LaunchProf will be profiled (set LAUNCHPROF_PRELOAD_LIBRARY)")
        }
        fflush(nil)  // the measured report first, then the profiles
        let interrupt = try InterruptMonitor()
        defer { interrupt.stop() }
        let runs = options.profileRuns ?? 10
        let timeout = try options.timeoutDuration(), grace = try options.graceDuration()
        var outcome = Outcome()
        let line = ProgressLine()
        let names = ProfileFileName.unique(plan.targets.map(\.name))
        for (target, base) in zip(plan.targets, names) {
            let recorder = ProfileRecorder(
                rate: options.profileHz ?? 1000, timeout: plan.timeout(of: target) ?? timeout,
                output: .discard, preloadLibrary: preload, runs: runs, probe: target.ready,
                grace: grace, interrupt: interrupt)
            do {
                let profiled = try recorder.profile(target, directory: directory, base: base) { index in
                    line.update(ProgressLine.Status(label: "\(target.name) (profile)", run: index, total: runs, median: nil))
                }
                line.clear()
                Output.note(Self.summary(of: profiled, target: target.name))
                outcome.profiles.append((target.name, profiled))
            } catch {
                line.clear()
                if case .record(.interrupted) = error {
                    Output.error("interrupted while profiling '\(target.name)'")
                    outcome.interrupted = true
                    return outcome
                }
                Output.error("cannot profile '\(target.name)': \(error)")
                outcome.failed.append(target.name)
            }
        }
        return outcome
    }

    /// "profile of NAME: N samples from K launches; hottest (self): F 61.0%, …; flame graph PATH".
    static func summary(of profiled: ProfileRecorder.Profiled, target: String) -> String {
        let profile = profiled.profile
        var text = "profile of '\(target)': \(profile.stacks.count) samples from \(profile.runCount) launch\(profile.runCount == 1 ? "" : "es")"
        text += ProfileRecord.HotFrame.clause(ProfileRecord.HotFrame.hottest(in: profile, limit: 3))
        if profile.stacks.isEmpty {
            text += " (in each launch the sampled window, from the constructors to launch complete or exit, used less CPU than one tick of the kernel's timer; the loader's work before it is never sampled: see docs/sampling.md)"
        }
        text += "\n  flame graph \(profiled.outputs.flameGraph)\n  speedscope  \(profiled.outputs.speedscope)\n  folded      \(profiled.outputs.folded)"
        for warning in profile.warnings { text += "\n  warning: \(warning)" }
        return text
    }
}
