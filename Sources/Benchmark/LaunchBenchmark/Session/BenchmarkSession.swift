import Foundation
import Glibc
import LaunchAnalysis
import LaunchEngine
import LaunchProfFiles
import LaunchSupport

/// One launch benchmark from its targets to its verdict: what
/// `launchprof run` does, and what a Swift program or test calls.
///
/// ```swift
/// let session = BenchmarkSession(
///     targets: [
///         LaunchTarget(name: "server", arguments: [serverPath], ready: .tracer),
///         LaunchTarget(name: "hello-c", arguments: [helloCPath]),
///     ],
///     stopping: .fixed(20),
///     settings: BenchmarkSettings(reference: "hello-c", budgets: [
///         try Budget("server", .wallToReady, "1.5x hello-c"),
///         try Budget("server", .maxRSS, "40MiB"),
///     ]))
/// let outcome = try await session.run()
/// try outcome.requirePassing()   // throws the CLI's Budgets section when one failed
/// ```
///
/// The steps, in order: ``validate()`` (every check that needs no run: a
/// reference that names a target, programs that exist, a baseline that can
/// be read, directories that can be created, results files that can be
/// written); the measured runs, interleaved
/// target by target ( `BenchmarkRunner`); the results document with
/// budgets checked and the baseline compared (``BenchmarkEvent/measured(_:)``);
/// profiles when asked for; the baseline saved when asked for. The outcome
/// holds the document, writes every file format (``BenchmarkOutcome/write(_:)``)
/// and says what the CLI exits with (``BenchmarkOutcome/status``).
public struct BenchmarkSession: Sendable {
    /// The targets, modes and run counts.
    package var plan: BenchmarkPlan
    /// How it runs and what it is checked against.
    public var settings: BenchmarkSettings
    /// The session's one spawner, for everything it starts: validation
    /// resolves each program with it (and it keeps what it resolved), the
    /// measured runs, the loader's audited launches and the profiled ones go
    /// through it. Its process starts on first use.
    let spawner = Spawner()

    /// A benchmark of `plan` under `settings`.
    package init(plan: BenchmarkPlan, settings: BenchmarkSettings = BenchmarkSettings()) {
        self.plan = plan
        self.settings = settings
    }

    /// Every target in every mode of `modes`, with `warmup` unmeasured runs
    /// and `stopping` deciding how many are measured.
    public init(
        targets: [LaunchTarget], modes: [LaunchMode] = RunDefaults.modes, warmup: Int = RunDefaults.warmup,
        stopping: StoppingRule = StoppingRule(), settings: BenchmarkSettings = BenchmarkSettings()
    ) {
        self.init(plan: BenchmarkPlan(targets: targets, modes: modes, warmup: warmup, stopping: stopping), settings: settings)
    }

    /// The targets of a config file (`selected` ones, all when empty, plus
    /// the references their ratio budgets need), with its budgets, reference,
    /// threshold and significance under `settings`' own (which win).
    public init(
        config: LaunchConfig, selecting selected: [String] = [], overrides: RunOverrides = RunOverrides(),
        settings: BenchmarkSettings = BenchmarkSettings()
    ) throws(BenchmarkSessionError) {
        do {
            plan = try config.plan(selecting: selected, overrides: overrides)
        } catch {
            throw .usage(error.description)
        }
        self.settings = settings.with(config)
    }

    /// Checks everything that needs no run, so that a typo does not cost a
    /// whole benchmark; returns the baseline, read. Creates the output and
    /// profile directories. Each program is resolved with the spawner the
    /// runs use, which keeps what it resolved: once per benchmark.
    @discardableResult
    public func validate() throws(BenchmarkSessionError) -> (document: ResultsDocument, name: String)? {
        guard !plan.targets.isEmpty else { throw .usage("no target to benchmark") }
        if let reference = settings.reference, !plan.targets.contains(where: { $0.name == reference }) {
            throw .usage("--reference '\(reference)' names no target; use a command as written, its --command-name or a target name")
        }
        if !settings.measure.isEmpty, let target = plan.targets.first(where: { $0.ready == .exit }) {
            throw .usage(
                "--measure times a program that stays up after ready, but '\(target.name)' is ready at exit: "
                    + "add --ready \(ReadyProbe.formList(stayingUp: true))")
        }
        for target in plan.targets {
            if target.activation != nil, !SocketActivation.allows(ready: target.ready) {
                throw .usage(
                    "target '\(target.name)': --activate \(SocketActivation.readinessRule); drop --ready \(target.ready)"
                )
            }
            if target.activation == nil, target.ready == .response {
                throw .usage("target '\(target.name)': --ready response needs --activate tcp:PORT or unix:PATH")
            }
        }
        let cold = plan.allModes.contains(.cold)
        if !cold, settings.dropCaches || plan.targets.contains(where: { !$0.evictPaths.isEmpty }) {
            throw .usage("--evict and --drop-caches only apply to cold runs; add --mode cold")
        }
        for target in plan.targets {
            for path in target.evictPaths where access(path, F_OK) != 0 {
                throw .usage("--evict '\(path)' does not exist (target '\(target.name)')")
            }
        }
        if settings.dropCaches {
            do {
                _ = try PageCacheEvictor(dropAllCaches: true)
            } catch {
                throw .usage("--drop-caches: \(error)")
            }
        }
        if let name = settings.saveBaseline {
            do {
                try BaselineStore.validate(name: name)
            } catch {
                throw .usage("--save-baseline: \(error)")
            }
        }
        for target in plan.targets {
            do {
                _ = try spawner.resolveProgram(of: target)
            } catch {
                throw .launchFailed("target '\(target.name)': \(error)")
            }
        }
        let baseline: (document: ResultsDocument, name: String)?
        switch settings.baseline {
        case nil: baseline = nil
        case .document(let document, let name): baseline = (document, name)
        case .saved(let name):
            do {
                baseline = (try settings.baselineStore.load(name), name)
            } catch {
                throw .usage("\(error)")
            }
        }
        if case .directory(let directory) = settings.output {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw .usage("--output-dir: cannot create '\(directory)': \(error.localizedDescription)")
            }
        }
        if let profiling = settings.profiling { try ProfilingStep.prepare(profiling) }
        do {
            try settings.results.check()
        } catch {
            throw .usage(error.description)
        }
        return baseline
    }

    /// Runs the benchmark on a thread of its own; cancelling the task stops
    /// it as Ctrl-C stops the CLI: the run in progress is stopped, its tree
    /// killed, and the outcome holds what was measured (``BenchmarkOutcome/interrupted``).
    /// `events` is called on that thread.
    public func run(events: @escaping @Sendable (BenchmarkEvent) -> Void = { _ in }) async throws(BenchmarkSessionError) -> BenchmarkOutcome
    {
        let interrupt = try interruptMonitor()
        defer { interrupt.stop() }
        let session = self
        let result: Result<BenchmarkOutcome, BenchmarkSessionError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    do throws(BenchmarkSessionError) {
                        continuation.resume(returning: .success(try session.run(interrupt: interrupt, events: events)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancel: {
            interrupt.interrupt()
        }
        return try result.get()
    }

    /// Whether this benchmark measures the calibration workload: asked
    /// for, or (by default) when the results will be compared across time
    /// (a baseline compared or saved) and no reference is named.
    var calibrates: Bool {
        if plan.targets.contains(where: { $0.name == Calibration.targetName }) { return false }
        return settings.calibrate ?? (settings.reference == nil && (settings.baseline != nil || settings.saveBaseline != nil))
    }

    /// What stops the run in progress: Ctrl-C when the settings catch signals, task cancellation.
    private func interruptMonitor() throws(BenchmarkSessionError) -> InterruptMonitor {
        do {
            return try InterruptMonitor(catchingSignals: settings.catchesSignals)
        } catch {
            throw .launchFailed("cannot watch for interrupts: \(error)")
        }
    }

    /// Runs the benchmark on the calling thread (the CLI's way); see ``run(events:)``.
    public func runSynchronously(events: (BenchmarkEvent) -> Void = { _ in }) throws(BenchmarkSessionError) -> BenchmarkOutcome {
        let interrupt = try interruptMonitor()
        defer { interrupt.stop() }
        return try run(interrupt: interrupt, events: events)
    }

    func run(interrupt: InterruptMonitor, events: (BenchmarkEvent) -> Void) throws(BenchmarkSessionError) -> BenchmarkOutcome {
        let baseline = try validate()
        var session = self
        if calibrates { session.plan = plan.calibrated() }
        // The X display of desktop programs, for the measured runs and the
        // profiled ones alike: a private Xvfb lives as long as the benchmark.
        let virtualDisplay = try startVirtualDisplay(events: events)
        defer { virtualDisplay?.stop() }
        let display: String? =
            switch settings.display {
            case .virtual?: virtualDisplay?.name
            case .named(let name)?: name
            case nil: nil
            }
        var measured = try session.measure(spawner: spawner, display: display, interrupt: interrupt, events: events)
        if let launches = settings.loaderLaunches, measured.failure == nil, !measured.interrupted {
            measured.results = Self.withLoaderProfiles(
                measured.results, launches: launches, dropCaches: settings.dropCaches, spawner: spawner, events: events)
        }
        var document = ResultsDocument.measuredNow(
            commandLine: settings.commandLine, reference: settings.reference, results: measured.results)
        if calibrates { document.calibration = Calibration.targetName }
        document.labels = (settings.labels ?? MetricLabels.standard(machine: document.machine.hostname)).documentLabels
        if !settings.budgets.isEmpty {
            document.budgets = BudgetEvaluator(budgets: settings.budgets).evaluate(measured.results)
        }
        if let baseline {
            document.comparison = settings.comparer.compare(baseline: baseline.document, current: document, baselineName: baseline.name)
        }
        events(.measured(document))
        var outcome = BenchmarkOutcome(
            document: document, measured: document, failure: measured.failure, interrupted: measured.interrupted,
            baseline: baseline)
        outcome.spawner = spawner
        // Profiled once measuring is done and reported (never while
        // measuring): the results list the profiles and the HTML report
        // draws their flame graphs.
        if let profiling = settings.profiling, measured.failure == nil, !measured.interrupted {
            let step = ProfilingStep(
                settings: profiling, labels: settings.labels ?? MetricLabels.standard(machine: document.machine.hostname),
                launches: plan.targets.map { settings.launchPlan(for: $0, in: plan, display: display) }, spawner: spawner)
            do {
                let profiled = try step.run(interrupt: interrupt, events: events)
                outcome.profiling = profiled
                if !profiled.profiles.isEmpty { outcome.document.profiles = profiled.records }
                if let baseline, outcome.document.comparison != nil {
                    let (differences, flameGraphs) = Self.profileDifferences(
                        baseline: baseline.document.profiles ?? [], current: profiled.records, profiles: profiled.byTarget)
                    outcome.document.comparison?.profileDifferences = differences.isEmpty ? nil : differences
                    outcome.differentialFlameGraphs = flameGraphs
                    for difference in differences {
                        let lines =
                            difference.summaryLines
                            + (difference.flameGraph.map { ["\(difference.target): differential flame graph \($0)"] } ?? [])
                        if !lines.isEmpty { events(.note("against the baseline's profile:\n  " + lines.joined(separator: "\n  "))) }
                    }
                }
            } catch {
                outcome.profilingError = error.message  // the results are still written
            }
        }
        if let name = settings.saveBaseline, measured.failure == nil, !measured.interrupted {
            do {
                // The measurements, and copies of the profiles' files (a
                // later run compares its profiles with them).
                outcome.savedBaseline = try settings.baselineStore.save(
                    outcome.measured, as: name, keepingProfiles: outcome.document.profiles ?? [])
            } catch {
                outcome.baselineSaveError = "\(error)"
            }
        }
        return outcome
    }

    /// The differential profile of each target profiled on both sides, its
    /// differential flame graph written beside the current profile's files
    /// and returned by target (for the HTML report: written once, never read
    /// back). The baseline's stacks are read from its saved folded file; the
    /// current ones come from the profile in memory (`profiles`, by target),
    /// never read back from the file this session just wrote.
    static func profileDifferences(
        baseline: [ProfileRecord], current: [ProfileRecord], profiles: [String: SymbolizedProfile] = [:]
    ) -> (differences: [ProfileDifference], flameGraphs: [String: String]) {
        var differences: [ProfileDifference] = []
        var flameGraphs: [String: String] = [:]
        for record in current {
            guard let old = baseline.first(where: { $0.target == record.target }),
                let before = try? String(contentsOfFile: old.folded, encoding: .utf8),
                let after = profiles[record.target].map({ FoldedStacks.text(of: $0) })
                    ?? (try? String(contentsOfFile: record.folded, encoding: .utf8))
            else { continue }
            var difference = ProfileDifference.between(
                target: record.target, before: before, launchesBefore: old.launches, after: after, launchesAfter: record.launches)
            let path = record.folded.hasSuffix(".folded") ? String(record.folded.dropLast(7)) + "-diff.svg" : record.folded + "-diff.svg"
            let svg = DifferentialFlameGraph.svg(
                before: before, launchesBefore: old.launches, after: after, launchesAfter: record.launches,
                title: "\(record.target): launch profile against the baseline")
            if (try? AtomicFile.write(svg, to: path)) != nil { difference.flameGraph = path }
            flameGraphs[record.target] = svg
            differences.append(difference)
        }
        return (differences, flameGraphs)
    }

    /// `--display virtual`: a private Xvfb for the benchmark, else nil.
    private func startVirtualDisplay(events: (BenchmarkEvent) -> Void) throws(BenchmarkSessionError) -> VirtualDisplay? {
        guard settings.display == .virtual else { return nil }
        do {
            let display = try VirtualDisplay()
            events(.note("desktop programs run on a private X display, Xvfb \(display.name)"))
            return display
        } catch {
            throw .usage("--display virtual: \(error)")
        }
    }

    private func measure(
        spawner: Spawner, display: String?, interrupt: InterruptMonitor, events: (BenchmarkEvent) -> Void
    ) throws(BenchmarkSessionError) -> MeasuredRuns {
        let launches = plan.targets.map { settings.launchPlan(for: $0, in: plan, display: display) }
        var executor = ProcessExecutor(launches: launches, interrupt: interrupt)
        executor.spawner = spawner
        var traceDirectory: String?
        if launches.contains(where: \.tracesRuns) {
            do {
                traceDirectory = try PrivateDirectory.make(prefix: "launchprof-runs")
            } catch {
                throw .usage("--trace-runs: cannot make a directory for the runs' traces: \(error)")
            }
            executor.traceDirectory = traceDirectory
        }
        defer { if let traceDirectory { rmdir(traceDirectory) } }
        let coldCache: PageCacheEvictor?
        do {
            coldCache = plan.allModes.contains(.cold) ? try PageCacheEvictor(dropAllCaches: settings.dropCaches) : nil
        } catch {
            throw .usage("\(error)")
        }
        return withoutActuallyEscaping(events) { events in
            let runner = BenchmarkRunner(
                plan: plan, executor: executor, coldCache: coldCache, interrupt: interrupt,
                progress: { events(.progress($0)) })
            return runner.run()
        }
    }
}
