import Foundation
import Glibc
import LaunchAnalysis
import LaunchProfFiles
import LaunchSupport

/// Runs a program once with the launch sampler on and writes what it found:
/// the trace, folded stacks, a speedscope profile, a flame graph SVG and a
/// gzipped pprof profile.
///
/// On the CPU clock the kernel samples (``SamplingMethod/kernel``): the
/// spawner opens the sampling events, nothing runs in the program, and the
/// stacks are unwound after each launch. Otherwise, or where perf events are
/// refused, the program samples itself (``SamplingMethod/inProcess``):
/// the sampler is asked for with LAUNCHPROF_SAMPLE_HZ. The preload library
/// (liblaunchprof-preload.so) is always put in LD_PRELOAD when found: it
/// samples programs that do not link LaunchProf, and stands down in those
/// that do (they sample themselves) while still loading libunwind at
/// start-up, so every thread of theirs can be sampled too.
package struct ProfileRecorder: Sendable {
    /// Samples per CPU-second of each thread (per second, on the wall clock).
    package var rate: UInt32
    /// What a period counts: each thread's CPU time, or the wall clock.
    package var clock: SamplingClock
    /// A launch neither ready nor exited by then is killed.
    package var timeout: Duration
    /// Where the program's output goes.
    package var output: OutputDisposition
    /// liblaunchprof-preload.so, or nil to run without it.
    package var preloadLibrary: String?
    /// Launches to sample; their samples make one profile.
    package var runs: Int
    /// When the launch is over: `exit`, or a probe after which the program
    /// is stopped (SIGTERM, then SIGKILL after `grace`).
    package var probe: ReadyProbe
    /// How long a program stopped after ready may take to exit.
    package var grace: Duration
    /// Stops profiling when it fires.
    package var interrupt: InterruptMonitor?
    /// Who takes the CPU clock's samples; the wall clock is always sampled
    /// in the program.
    package var method: SamplingMethod = .kernel
    /// The pprof profile's `program` label; nil: the output files' base name.
    package var program: String?
    /// Labels on every sample of the pprof profile besides its own
    /// (program, phase, thread): a benchmark's commit, branch, runner…
    package var labels = MetricLabels()
    /// The command's one spawner, for every launch profiled (a session's
    /// own, for `run --profile`).
    package var spawner = Spawner()

    /// A recorder of `runs` launches sampled at `rate`.
    package init(
        rate: UInt32 = RunDefaults.profileRate, timeout: Duration = RunDefaults.timeout, output: OutputDisposition = .inherit,
        preloadLibrary: String?, runs: Int = 1, probe: ReadyProbe = .exit, grace: Duration = RunDefaults.grace,
        interrupt: InterruptMonitor? = nil, clock: SamplingClock = .cpu
    ) {
        self.rate = rate
        self.clock = clock
        self.timeout = timeout
        self.output = output
        self.preloadLibrary = preloadLibrary
        self.runs = max(1, runs)
        self.probe = probe
        self.grace = grace
        self.interrupt = interrupt
    }

    /// The files one profile produced.
    package struct Outputs: Sendable {
        /// One trace per launch.
        package var traces: [String]
        /// The folded stacks' path.
        package var folded: String
        /// The speedscope JSON's path.
        package var speedscope: String
        /// The flame graph SVG's path.
        package var flameGraph: String
        /// The gzipped pprof profile's path (profile.proto).
        package var pprof: String
    }

    /// What profiling gave: each launch, the merged profile, the files.
    package struct Profiled: Sendable {
        /// Each launch recorded.
        package var launches: [RecordedLaunch]
        /// The merged, symbolized profile.
        package var profile: SymbolizedProfile
        /// The files written.
        package var outputs: Outputs
        /// How the samples were taken.
        package var method: SamplingMethod
        /// What the user should know of how it was sampled (the kernel
        /// refused, so the program sampled itself; samples lost because the
        /// sample file could not be written).
        package var notes: [String] = []

        /// Why the program failed (crashed, was killed, exited non-zero),
        /// one line per failed launch; nil when every launch succeeded. The
        /// profile is written either way: where a failing launch spent its
        /// time is worth seeing, but `profile` then exits with 3, as `run` does.
        package var failure: String?

        /// The failure of `launches` of `program` (``failure``).
        static func failure(of launches: [RecordedLaunch], program: String) -> String? {
            let failed = launches.enumerated().filter { !$0.element.run.exit.isSuccess }
            guard !failed.isEmpty else { return nil }
            return failed.map { index, launch in
                let which = launches.count > 1 ? "launch \(index + 1): " : ""
                return "\(which)'\(program)' \(launch.run.exit)"
            }.joined(separator: "; ")
        }
    }

    /// Who will sample: ``method``, but the program itself for the wall
    /// clock, and where the kernel refuses perf events (then with the note
    /// that says why).
    package func samplingMethod() -> (method: SamplingMethod, note: String?) {
        Self.samplingMethod(method, clock: clock)
    }

    /// Who samples when `method` is asked for on `clock` (``samplingMethod()``).
    package static func samplingMethod(_ method: SamplingMethod, clock: SamplingClock) -> (method: SamplingMethod, note: String?) {
        if clock == .wall || method == .inProcess { return (.inProcess, nil) }
        guard let reason = SamplingMethod.kernelUnavailableReason() else { return (.kernel, nil) }
        return (.inProcess, "the kernel cannot sample here: \(reason); the program samples itself instead (slower: docs/sampling.md)")
    }

    /// The preload library `launchprof profile` uses: `explicit` when given,
    /// none when `disabled`, else ``defaultPreloadLibrary()``; with the note
    /// to show when none was found.
    package static func preloadLibrary(explicit: String?, disabled: Bool) -> (path: String?, note: String?) {
        if disabled { return (nil, nil) }
        if let path = explicit ?? defaultPreloadLibrary() { return (path, nil) }
        return (nil, missingPreloadNote(remedy: "set LAUNCHPROF_PRELOAD_LIBRARY or --preload-library"))
    }

    /// Where liblaunchprof-preload.so is: $LAUNCHPROF_PRELOAD_LIBRARY, or
    /// `../libexec/launchprof/` from the running executable (an install), or
    /// in launchprof's resources beside it (where `swift build` puts it:
    /// `launchprof_launchprof.resources/`), or beside it.
    package static func defaultPreloadLibrary() -> String? {
        // A set variable is used as given: profiling reports it when missing.
        if let path = ProcessInfo.processInfo.environment[CompanionFile.preloadLibrary.variable], !path.isEmpty { return path }
        return CompanionFile.preloadLibrary.locate(mode: R_OK).path
    }

    /// The note for a run without the preload library: the paths tried, and
    /// what only programs that link LaunchProf still get.
    package static func missingPreloadNote(remedy: String) -> String {
        missingPreloadNote(CompanionFile.preloadLibrary.locate(mode: R_OK), remedy: remedy)
    }

    static func missingPreloadNote(_ search: CompanionFile.Search, remedy: String) -> String {
        let tried = search.tried.isEmpty ? "" : " (tried \(search.tried.map { "'\($0)'" }.joined(separator: ", ")))"
        return "\(preloadLibraryName) was not found\(tried)\(search.problem.map { ": \($0)" } ?? ""); "
            + "only programs that link LaunchProf will be sampled (\(remedy))"
    }

    /// The preload library's file name.
    package static let preloadLibraryName = "liblaunchprof-preload.so"
    /// The folder SwiftPM copies the launchprof target's resources to, beside the executable.
    package static let resourcesFolder = "launchprof_launchprof.resources"

    /// The output files for `base` in `directory`: `<base>.lptrace` (or
    /// `<base>-1.lptrace`… for several launches), `.folded`,
    /// `.speedscope.json`, `.svg` and `.pb.gz` (pprof).
    package func outputs(directory: String, base: String) -> Outputs {
        let prefix = (directory as NSString).appendingPathComponent(base)
        let traces = runs == 1 ? [prefix + ".lptrace"] : (1...runs).map { "\(prefix)-\($0).lptrace" }
        return Outputs(
            traces: traces, folded: prefix + ".folded", speedscope: prefix + ".speedscope.json", flameGraph: prefix + ".svg",
            pprof: prefix + ".pb.gz")
    }

    /// Profiles `runs` launches of `target` and writes the files of
    /// ``outputs(directory:base:)``, creating `directory` when it is missing.
    /// `progress` hears of each launch before it starts.
    package func profile(
        _ target: LaunchTarget, directory: String, base: String, progress: (Int) -> Void = { _ in }
    ) throws(ProfileError) -> Profiled {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .directory(path: directory, reason: error.localizedDescription)
        }
        var target = target
        let (method, note) = samplingMethod()
        let notes = note.map { [$0] } ?? []
        if method == .inProcess {
            target.environment["LAUNCHPROF_SAMPLE_HZ"] = String(rate)
            target.environment["LAUNCHPROF_SAMPLE_CLOCK"] = clock.environmentValue
        }
        if method == .inProcess, let preloadLibrary {
            guard access(preloadLibrary, R_OK) == 0 else { throw .missingPreload(path: preloadLibrary) }
            let existing = target.environment["LD_PRELOAD"] ?? ProcessInfo.processInfo.environment["LD_PRELOAD"] ?? ""
            target.environment["LD_PRELOAD"] = existing.isEmpty ? preloadLibrary : "\(preloadLibrary):\(existing)"
        }
        let outputs = outputs(directory: directory, base: base)
        var recorder = TraceRecorder(timeout: timeout, output: output, probe: probe, grace: grace, interrupt: interrupt)
        recorder.spawner = spawner
        if method == .kernel { recorder.kernelSamplingRate = rate }
        var launches: [RecordedLaunch] = []
        for (index, path) in outputs.traces.enumerated() {
            progress(index)
            do {
                launches.append(try recorder.record(target, to: path))
            } catch .mappingsMissed {
                // A program that ends just after it is ready: its mappings
                // come from the kernel's mmap records, this launch and the
                // next.
                recorder.mappingsAtReady = false
                do {
                    launches.append(try recorder.record(target, to: path))
                } catch {
                    throw .record(error)
                }
            } catch {
                throw .record(error)
            }
        }
        let profile: SymbolizedProfile
        do {
            profile = try Symbolizer(spawner: spawner).symbolize(launches.map(\.trace), name: base)
        } catch {
            throw .symbolize(error)
        }
        let launchesText = runs == 1 ? "launch" : "\(runs) launches"
        do {
            try AtomicFile.write(FoldedStacks.text(of: profile), to: outputs.folded)
            try AtomicFile.write(SpeedscopeExporter.json(of: profile), to: outputs.speedscope)
            try AtomicFile.write(
                FlameGraphSVG.svg(of: profile, title: "\(base) \(launchesText) (\(rate) Hz)"), to: outputs.flameGraph)
            let pprof = PprofExporter.gzipped(profile, traces: launches.map(\.trace), program: program ?? base, labels: labels.pairs)
            try AtomicFile.write(pprof, to: outputs.pprof, sync: true)
        } catch {
            throw .write(error)
        }
        // A cut sample file, said per launch.
        var allNotes = notes
        for (index, launch) in launches.enumerated() {
            allNotes += launch.notes.map { runs > 1 ? "launch \(index + 1): \($0)" : $0 }
        }
        var profiled = Profiled(launches: launches, profile: profile, outputs: outputs, method: method, notes: allNotes)
        profiled.failure = Profiled.failure(of: launches, program: target.arguments.first?.string ?? target.name)
        return profiled
    }
}
