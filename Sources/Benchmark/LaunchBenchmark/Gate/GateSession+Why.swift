import Glibc
import LaunchEngine
import LaunchSupport

// The Why of a regressed gate (docs/gate.md, "The Why"): what grew, made
// as `run --baseline` makes it, from runs of both sides side by side.
extension GateSession {
    /// Audited launches per side for the loader's time per library (as
    /// `run --loader`'s default).
    static let auditedLaunches = 5

    /// The attribution of `head`'s runs against `base`'s (the gate's own),
    /// with `GateSettings/whyRuns` traced runs of each side added in ABBA
    /// order when the programs report to a LaunchProf tracer (only then
    /// does a trace hold their signpost intervals), the libraries each side
    /// loads, and the loader's time per library from audited launches of a
    /// dynamic program. What it could not do is a note; it never fails.
    func why(
        base baseRuns: [RunMeasurement], head headRuns: [RunMeasurement], runner: GateRunner, spawner: Spawner,
        interrupt: InterruptMonitor, coldCache: PageCacheEvictor?
    ) -> GateWhy {
        var notes: [String] = []
        var before = baseRuns, after = headRuns
        var traced = 0
        let reportsToTracer = (baseRuns + headRuns).contains { $0.processEntry != nil || $0.main != nil }
        if !reportsToTracer {
            notes.append(
                "the programs do not report to a LaunchProf tracer, so no run was traced: the Why is from the gate's own runs "
                    + "(phases, CPU and off-CPU time, libraries)")
        } else if settings.whyRuns > 0 {
            do {
                let directory = try PrivateDirectory.make(prefix: "launchprof-gate")
                defer { rmdir(directory) }
                var executor = executor(traced: true, spawner: spawner, interrupt: interrupt)
                executor.traceDirectory = directory
                let more = runner.moreRuns(settings.whyRuns, through: executor, startingAt: (baseRuns.count, headRuns.count))
                before += more.base
                after += more.head
                traced = min(more.base.count, more.head.count)
                if let stop = more.stop {
                    notes.append(
                        "the traced runs stopped after \(more.base.count + more.head.count) of \(2 * settings.whyRuns): \(stop.description)"
                    )
                }
            } catch {
                notes.append("no traced runs: cannot make a directory for their traces: \(error)")
            }
        }
        var baseline = BenchmarkResult(target: base, mode: settings.mode, runs: before)
        var current = BenchmarkResult(target: head, mode: settings.mode, runs: after)
        let resolver = SharedLibraryResolver()
        baseline.libraries = Self.libraries(of: base, resolver: resolver)
        current.libraries = Self.libraries(of: head, resolver: resolver)
        var audited = 0
        let isStatic = baseline.libraries?.isEmpty == true && current.libraries?.isEmpty == true
        if !isStatic, !interrupt.isInterrupted {
            do {
                let audit = LoaderAudit(
                    library: try LoaderAudit.locateLibrary(), launches: Self.auditedLaunches, timeout: settings.timeout,
                    spawner: spawner)
                baseline.loader = try audit.profile(base, mode: settings.mode, evictor: coldCache)
                current.loader = try audit.profile(head, mode: settings.mode, evictor: coldCache)
                audited = Self.auditedLaunches
            } catch {
                baseline.loader = nil
                notes.append("no loader time per library: \(error)")
            }
        }
        let attribution = LaunchAttribution.attribute(baseline: baseline, current: current)
        return GateWhy(tracedRuns: traced, auditedLaunches: audited, attribution: attribution, notes: notes)
    }

    /// The shared libraries `target` loads, without its program; nil when
    /// they cannot be resolved.
    private static func libraries(of target: LaunchTarget, resolver: SharedLibraryResolver) -> [String]? {
        guard let files = try? resolver.fileSet(for: target) else { return nil }
        return files.files.filter { $0 != files.program }.sorted()
    }
}
