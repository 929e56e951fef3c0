import Foundation
import LaunchAnalysis
import LaunchEngine

/// The one path of profiling, for `run --profile` and `launchprof profile`:
/// each target's launch is sampled in runs of its own (after a benchmark's
/// measuring, so sampling never touches the measured runs), with the
/// target's own environment, working directory, ready probe, timeout and
/// grace (its `LaunchPlan`); the samples of all its runs make one profile,
/// written once as a flame graph, folded stacks, a speedscope file and a
/// pprof profile, and kept in memory for whatever is built from it (the
/// results' records, the report's flame graphs, the differences against a
/// baseline). Who samples (the kernel or the program) is decided here, once.
package struct ProfilingStep {
    package var settings: ProfilingSettings
    /// The results' labels (commit, branch, runner…), put on every sample
    /// of the pprof profiles.
    package var labels: MetricLabels
    /// Each target's launches, as its measured runs were made (timeout,
    /// grace, display), in the plan's order.
    package var launches: [LaunchPlan]
    /// Each target's output files' base name, in the same order.
    package var names: [String]
    /// The command's one spawner (a session's own).
    package var spawner: Spawner

    /// Profiles `launches` with `settings`; `names` defaults to each target's
    /// name made a file name, unique among them.
    package init(
        settings: ProfilingSettings, labels: MetricLabels, launches: [LaunchPlan], names: [String]? = nil,
        spawner: Spawner = Spawner()
    ) {
        self.settings = settings
        self.labels = labels
        self.launches = launches
        self.names = names ?? ProfileFileName.unique(launches.map(\.target.name))
        self.spawner = spawner
    }

    /// Who will sample, and the note that says why it is not the one asked
    /// for (the kernel refused perf events): decided once for every target.
    package var samplingMethod: (method: SamplingMethod, note: String?) {
        ProfileRecorder.samplingMethod(settings.method, clock: settings.clock)
    }

    /// Creates the profile directory: before measuring (a bad path should
    /// not cost a whole benchmark) and again before profiling (it may have gone).
    package static func prepare(_ settings: ProfilingSettings) throws(BenchmarkSessionError) {
        do {
            try FileManager.default.createDirectory(atPath: settings.directory, withIntermediateDirectories: true)
        } catch {
            throw .usage("\(settings.directoryFlag): cannot create '\(settings.directory)': \(error.localizedDescription)")
        }
    }

    /// Profiles each target in turn. A target that cannot be profiled is
    /// reported and the others are still tried; an interrupt stops at once,
    /// keeping what was done.
    package func run(
        interrupt: InterruptMonitor?, events: (BenchmarkEvent) -> Void
    ) throws(BenchmarkSessionError) -> ProfilingOutcome {
        try Self.prepare(settings)
        let method = samplingMethod
        if let note = method.note { events(.note(note)) }
        if settings.preloadLibrary == nil, method.method == .inProcess, let remedy = settings.preloadRemedy {
            events(.note(ProfileRecorder.missingPreloadNote(remedy: remedy)))
        }
        var outcome = ProfilingOutcome()
        for (launch, base) in zip(launches, names) {
            let target = launch.target
            var recorder = ProfileRecorder(
                rate: settings.rate, timeout: launch.timeout, output: settings.output,
                preloadLibrary: settings.preloadLibrary, runs: settings.runs, probe: target.ready, grace: launch.grace,
                interrupt: interrupt, clock: settings.clock)
            recorder.method = method.method  // decided above, for every target
            recorder.program = target.name
            recorder.labels = labels
            recorder.spawner = spawner
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
                outcome.errors.append((target.name, error))
                events(.note("cannot profile '\(target.name)': \(error)"))
            }
        }
        return outcome
    }

    /// "profile of NAME: N samples from K launches; hottest (self): F 61.0%, …; flame graph PATH".
    package static func summary(of profiled: ProfileRecorder.Profiled, target: String) -> String {
        let profile = profiled.profile
        var text =
            "profile of '\(target)': \(profile.sampleCount) samples from \(profile.runCount) launch\(profile.runCount == 1 ? "" : "es")"
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
