import Foundation
import LaunchEngine
import LaunchSupport

/// One side-by-side gate from its two targets to its verdict: what
/// `launchprof gate` does, and what a Swift program or test calls.
///
/// ```swift
/// let gate = GateSession(
///     base: LaunchTarget(name: "base", arguments: ["./old/app"]),
///     head: LaunchTarget(name: "head", arguments: ["./new/app"]))
/// let document = try gate.runSynchronously()
/// // document.verdict: .regressed, .improved, .unchanged or .inconclusive
/// ```
public struct GateSession: Sendable {
    /// The program compared against.
    public var base: LaunchTarget
    /// The changed program.
    public var head: LaunchTarget
    /// How it measures and decides.
    public var settings: GateSettings
    /// A monitor the caller owns and keeps (a bisect, across its gates);
    /// nil: the gate makes its own, catching signals as `settings` says.
    package var interrupt: InterruptMonitor?
    /// The command's spawner (a gate of revisions: the one that built
    /// them); nil: the gate makes its own.
    package var spawner: Spawner?

    /// A gate of `head` against `base`.
    public init(base: LaunchTarget, head: LaunchTarget, settings: GateSettings = GateSettings()) {
        self.base = base
        self.head = head
        self.settings = settings
    }

    /// Runs the gate on the calling thread; `progress` is called after each
    /// run. Throws for what stops it before any run (bad settings: status
    /// 2; a program that cannot be found: status 3); a run that fails or an
    /// interrupt is in the document (its exit status says so). A regressed
    /// verdict comes with its Why (`GateSettings/whyRuns`).
    public func runSynchronously(progress: @escaping (GateProgress) -> Void = { _ in }) throws(BenchmarkSessionError) -> GateDocument {
        let (rule, instructionRule) = try rules()
        return try measuring { spawner, interrupt, coldCache in
            guard settings.choosesAffinity, settings.affinity == nil else {
                return measure(
                    rule: rule, instructionRule: instructionRule, pilot: nil, spawner: spawner, interrupt: interrupt,
                    coldCache: coldCache, progress: progress)
            }
            let pilot = choosingAffinity(rule: rule, spawner: spawner, interrupt: interrupt, coldCache: coldCache)
            var chosen = self
            chosen.settings.affinity = pilot.affinity
            return Self.pinningThisThread(to: pilot.affinity) {
                chosen.measure(
                    rule: rule, instructionRule: instructionRule, pilot: pilot.choice, spawner: spawner, interrupt: interrupt,
                    coldCache: coldCache, progress: progress)
            }
        }
    }

    /// The gate itself, its budget less the pilot's time (`--affinity
    /// auto`), whose time its elapsed time includes.
    private func measure(
        rule: SequentialDecisionRule, instructionRule: SequentialDecisionRule?, pilot: AffinityChoice?, spawner: Spawner,
        interrupt: InterruptMonitor, coldCache: PageCacheEvictor?, progress: @escaping (GateProgress) -> Void
    ) -> GateDocument {
        let pilotTime = pilot?.elapsed ?? 0
        let maxTime = settings.maxTime.map { Swift.max($0 - .milliseconds(Int64(pilotTime * 1000)), .seconds(1)) }
        var runner = GateRunner(
            base: base, head: head, mode: settings.mode, warmup: settings.warmup, rule: rule, maxTime: maxTime,
            executor: executor(traced: false, spawner: spawner, interrupt: interrupt), coldCache: coldCache,
            interrupt: interrupt)
        runner.instructionRule = instructionRule
        runner.progress = progress
        // A launch the pilot found faster unpinned than on any one CPU is no
        // one CPU's: its neighbours pair whatever their CPU (`GatePairing`).
        runner.sameCPUPairs = pilot?.spansCPUs != true
        var measurement = runner.run()
        measurement.elapsed += pilotTime
        var summary = GateReport.summary(
            verdict: measurement.verdict, stop: measurement.stop, final: measurement.final, threshold: rule.threshold,
            elapsed: measurement.elapsed, smallestResolvable: measurement.smallestResolvable(threshold: rule.threshold),
            sameCPUPairs: runner.sameCPUPairs)
        if let instructionRule, let counted = measurement.instructions {
            summary = GateReport.summary(
                summary, verdict: measurement.verdict, time: measurement.final, instructions: counted,
                threshold: instructionRule.threshold)
        }
        var document = GateDocument(
            base: Self.commandLine(base), head: Self.commandLine(head), mode: settings.mode, rule: rule,
            measurement: measurement, summary: summary)
        document.affinity = settings.affinity?.description
        document.affinityChoice = pilot
        if measurement.verdict == .regressed, settings.whyRuns > 0 {
            document.why = why(
                base: measurement.baseRuns, head: measurement.headRuns, runner: runner, spawner: spawner, interrupt: interrupt,
                coldCache: coldCache)
        }
        return document
    }

    /// `--affinity auto`: the pilot (`AffinityPilot`) over unpinned and a
    /// few of this thread's CPUs, with at most a quarter of the budget;
    /// its pinned runs have this thread pinned too, as the gate's will.
    private func choosingAffinity(
        rule: SequentialDecisionRule, spawner: Spawner, interrupt: InterruptMonitor, coldCache: PageCacheEvictor?
    ) -> (choice: AffinityChoice, affinity: CPUAffinity?) {
        let allowed = (try? CPUAffinity.current()) ?? CPUAffinity(cpus: [])
        let pilot = AffinityPilot(
            candidates: AffinityPilot.candidates(allowed: allowed), limit: settings.maxTime.map { $0 / 4 })
        var runners: [String: GateRunner] = [:]
        var counts: [GateSide: Int] = [:]
        return pilot.run { side, affinity, warmup in
            let key = affinity?.description ?? ""
            if runners[key] == nil {
                var pinned = self
                pinned.settings.affinity = affinity
                runners[key] = GateRunner(
                    base: base, head: head, mode: settings.mode, warmup: 0, rule: rule,
                    executor: pinned.executor(traced: false, spawner: spawner, interrupt: interrupt), coldCache: coldCache,
                    interrupt: interrupt)
            }
            let index = counts[side, default: 0]
            counts[side] = index + 1
            return Self.pinningThisThread(to: affinity) {
                (try? runners[key]!.launch(side, index: index, warmup: warmup)).map { Double($0.wallToReady ?? 0) }
            }
        }
    }

    /// `body` with this thread on `affinity` (nil: as it is), given its own
    /// set back after; a set it cannot take leaves it as it is.
    private static func pinningThisThread<T>(to affinity: CPUAffinity?, _ body: () -> T) -> T {
        guard let affinity, let restore = try? CPUAffinity.current(), (try? affinity.apply()) != nil else { return body() }
        defer { try? restore.restore() }
        return body()
    }

    /// The Why of `document`, a gate of these two programs measured
    /// earlier in this process (a bisect's first slow commit, whose
    /// deciding gate ran without one): its runs, plus traced runs and
    /// audited launches of both sides now.
    package func explain(_ document: GateDocument) throws(BenchmarkSessionError) -> GateWhy {
        let (rule, _) = try rules()
        return try measuring { spawner, interrupt, coldCache in
            // Its runs where the gate's ran: the CPUs its pilot chose.
            var pinned = self
            if settings.affinity == nil, let chosen = document.affinity { pinned.settings.affinity = try? CPUAffinity(parsing: chosen) }
            let runner = GateRunner(
                base: base, head: head, mode: settings.mode, warmup: 0, rule: rule,
                executor: pinned.executor(traced: false, spawner: spawner, interrupt: interrupt), coldCache: coldCache,
                interrupt: interrupt)
            return Self.pinningThisThread(to: pinned.settings.affinity) {
                pinned.why(
                    base: document.baseRuns, head: document.headRuns, runner: runner, spawner: spawner, interrupt: interrupt,
                    coldCache: coldCache)
            }
        }
    }

    /// The decision rules for time and for instructions; bad settings are
    /// bad usage.
    private func rules() throws(BenchmarkSessionError) -> (SequentialDecisionRule, SequentialDecisionRule?) {
        do {
            let rules = (try settings.rule(), try settings.instructionRule())
            if let maxTime = settings.maxTime, maxTime <= .zero {
                throw BenchmarkSessionError.usage("--max-time must be more than 0 seconds")
            }
            if settings.whyRuns < 0 { throw BenchmarkSessionError.usage("--why-runs must be 0 or more, got \(settings.whyRuns)") }
            return rules
        } catch let error as GateRuleError {
            throw .usage(error.description)
        } catch let error as BenchmarkSessionError {
            throw error
        } catch {
            throw .usage("\(error)")
        }
    }

    /// Runs `body` with what measuring needs, made once for the command:
    /// the targets checked and their programs found, this thread pinned
    /// (`--affinity`, undone after; the runs are pinned by their plans), one `Spawner` (the command's, when it
    /// has one), the interrupt monitor, and the page-cache evictor in cold
    /// mode.
    private func measuring<T>(
        _ body: (Spawner, InterruptMonitor, PageCacheEvictor?) -> T
    ) throws(BenchmarkSessionError) -> T {
        for target in [base, head] {
            if target.activation != nil, !SocketActivation.allows(ready: target.ready) {
                throw .usage("the \(target.name) program: --activate \(SocketActivation.readinessRule); drop --ready \(target.ready)")
            }
            if target.activation == nil, target.ready == .response {
                throw .usage("the \(target.name) program: --ready response needs --activate tcp:PORT or unix:PATH")
            }
        }
        // Pinned: every launch asks the spawner for the set (LaunchPlan,
        // LP_SPAWN_FLAG_AFFINITY), which works whenever the spawner was
        // started (a gate of revisions starts it for git and the builds,
        // unpinned). This thread, which watches the runs, is pinned too, as
        // in every pinned measurement of docs/gate.md, and gets its own set
        // back after; `apply` refuses a set with a CPU it may not use.
        var restore: CPUAffinity?
        if let affinity = settings.affinity {
            do {
                restore = try CPUAffinity.current()
                try affinity.apply()
            } catch {
                throw .usage("--affinity: \(error)")
            }
        }
        defer { try? restore?.restore() }
        let spawner = self.spawner ?? Spawner()
        for target in [base, head] {
            do {
                _ = try spawner.resolveProgram(of: target)
            } catch {
                throw .launchFailed("the \(target.name) program: \(error)")
            }
        }
        let interrupt: InterruptMonitor
        do {
            interrupt = try self.interrupt ?? InterruptMonitor(catchingSignals: settings.catchesSignals)
        } catch {
            throw .launchFailed("cannot watch for interrupts: \(error)")
        }
        defer { if self.interrupt == nil { interrupt.stop() } }
        let coldCache: PageCacheEvictor?
        do {
            coldCache = settings.mode == .cold ? try PageCacheEvictor(dropAllCaches: false) : nil
        } catch {
            throw .usage("\(error)")
        }
        return body(spawner, interrupt, coldCache)
    }

    /// What launches both sides, from one plan each: the same timeout,
    /// grace, output and counts. The gate's own runs are never traced (a
    /// trace would weigh on both); the Why's are.
    func executor(traced: Bool, spawner: Spawner, interrupt: InterruptMonitor) -> ProcessExecutor {
        let launches = [base, head].map {
            var plan = LaunchPlan(
                target: $0, timeout: settings.timeout, grace: settings.grace, output: settings.output, traceRuns: traced,
                counts: traced ? nil : settings.counts)
            plan.affinity = settings.affinity
            return plan
        }
        var executor = ProcessExecutor(launches: launches, interrupt: interrupt)
        executor.spawner = spawner
        return executor
    }

    /// The target's command as a person would type it.
    static func commandLine(_ target: LaunchTarget) -> String {
        target.arguments.map(\.string).map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }
}
