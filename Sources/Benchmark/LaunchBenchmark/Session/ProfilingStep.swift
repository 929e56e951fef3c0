import Foundation
import LaunchAnalysis
import LaunchEngine

/// `run --profile`: once measuring is done, each target's launch is sampled
/// in runs of its own (so sampling never touches the measured runs), through
/// the preload library, with the target's own environment, working directory
/// and ready probe; the samples of all its runs make one profile, written as
/// a flame graph, folded stacks, a speedscope file and a pprof profile.
struct ProfilingStep {
    var settings: ProfilingSettings
    /// The results' labels (commit, branch, runner…), put on every sample
    /// of the pprof profiles.
    var labels: MetricLabels
    /// Each target's launches, as its measured runs were made (timeout,
    /// grace, display), in the plan's order.
    var launches: [LaunchPlan]

    /// Creates the profile directory: before measuring (a bad path should
    /// not cost a whole benchmark) and again before profiling (it may have gone).
    static func prepare(_ settings: ProfilingSettings) throws(BenchmarkSessionError) {
        do {
            try FileManager.default.createDirectory(atPath: settings.directory, withIntermediateDirectories: true)
        } catch {
            throw .usage("--profile-dir: cannot create '\(settings.directory)': \(error.localizedDescription)")
        }
    }

    /// Profiles each target in turn. A target that cannot be profiled is
    /// reported and the others are still tried; an interrupt stops at once,
    /// keeping what was done.
    func run(interrupt: InterruptMonitor, events: (BenchmarkEvent) -> Void) throws(BenchmarkSessionError) -> ProfilingOutcome {
        try Self.prepare(settings)
        if settings.preloadLibrary == nil, ProfileRecorder.samplingMethod(settings.method, clock: settings.clock).method == .inProcess {
            events(.note(ProfileRecorder.missingPreloadNote(remedy: "set LAUNCHPROF_PRELOAD_LIBRARY")))
        }
        var outcome = ProfilingOutcome()
        let names = ProfileFileName.unique(launches.map(\.target.name))
        for (launch, base) in zip(launches, names) {
            let target = launch.target
            var recorder = ProfileRecorder(
                rate: settings.rate, timeout: launch.timeout, output: .discard,
                preloadLibrary: settings.preloadLibrary, runs: settings.runs, probe: target.ready, grace: launch.grace,
                interrupt: interrupt, clock: settings.clock)
            recorder.method = settings.method
            recorder.program = target.name
            recorder.labels = labels
            do {
                let profiled = try recorder.profile(target, directory: settings.directory, base: base) { index in
                    events(.profiling(target: target.name, launch: index, total: settings.runs))
                }
                for note in profiled.notes { events(.note("profiling '\(target.name)': \(note)")) }
                outcome.profiles.append((target.name, profiled))
                events(.profiled(target: target.name, summary: Self.summary(of: profiled, target: target.name)))
            } catch {
                if case .record(.interrupted) = error {
                    outcome.problems.append("interrupted while profiling '\(target.name)'")
                    outcome.interrupted = true
                    events(.note("interrupted while profiling '\(target.name)'"))
                    return outcome
                }
                outcome.problems.append("cannot profile '\(target.name)': \(error)")
                outcome.failed.append(target.name)
                events(.note("cannot profile '\(target.name)': \(error)"))
            }
        }
        return outcome
    }

    /// "profile of NAME: N samples from K launches; hottest (self): F 61.0%, …; flame graph PATH".
    static func summary(of profiled: ProfileRecorder.Profiled, target: String) -> String {
        let profile = profiled.profile
        var text =
            "profile of '\(target)': \(profile.stacks.count) samples from \(profile.runCount) launch\(profile.runCount == 1 ? "" : "es")"
        text += ProfileRecord.HotFrame.clause(ProfileRecord.HotFrame.hottest(in: profile, limit: 3))
        if profile.stacks.isEmpty {
            text +=
                profiled.method == .kernel
                ? " (in each launch the sampled window, from the exec to ready, launch complete or exit, used less CPU than one sampling period on each thread: see docs/sampling.md)"
                : " (in each launch the sampled window, from the constructors to launch complete or exit, used less CPU than one sampling period (one tick of the kernel's timer where perf events are not allowed); the loader's work before it is never sampled: see docs/sampling.md)"
        }
        text +=
            "\n  flame graph \(profiled.outputs.flameGraph)\n  speedscope  \(profiled.outputs.speedscope)\n  folded      \(profiled.outputs.folded)\n  pprof       \(profiled.outputs.pprof)"
        for warning in profile.warnings { text += "\n  warning: \(warning)" }
        return text
    }
}
