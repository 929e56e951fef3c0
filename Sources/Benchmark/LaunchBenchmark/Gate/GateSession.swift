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

    /// A gate of `head` against `base`.
    public init(base: LaunchTarget, head: LaunchTarget, settings: GateSettings = GateSettings()) {
        self.base = base
        self.head = head
        self.settings = settings
    }

    /// Runs the gate on the calling thread; `progress` is called after each
    /// run. Throws for what stops it before any run (bad settings: status
    /// 2; a program that cannot be found: status 3); a run that fails or an
    /// interrupt is in the document (its exit status says so).
    public func runSynchronously(progress: @escaping (GateProgress) -> Void = { _ in }) throws(BenchmarkSessionError) -> GateDocument {
        let rule: SequentialDecisionRule
        let instructionRule: SequentialDecisionRule?
        do {
            rule = try settings.rule()
            instructionRule = try settings.instructionRule()
        } catch {
            throw .usage(error.description)
        }
        if let maxTime = settings.maxTime, maxTime <= .zero { throw .usage("--max-time must be more than 0 seconds") }
        for target in [base, head] {
            if target.activation != nil, !SocketActivation.allows(ready: target.ready) {
                throw .usage("the \(target.name) program: --activate \(SocketActivation.readinessRule); drop --ready \(target.ready)")
            }
            if target.activation == nil, target.ready == .response {
                throw .usage("the \(target.name) program: --ready response needs --activate tcp:PORT or unix:PATH")
            }
        }
        // Pinned: this thread starts lp-spawn, which (and every program it
        // launches) inherits the set; the thread gets its own set back after.
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
        let spawner = Spawner()
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
        // Both sides launched from one plan each: the same timeout, grace,
        // output and counts, and never traced (a trace would weigh on both).
        let launches = [base, head].map {
            LaunchPlan(
                target: $0, timeout: settings.timeout, grace: settings.grace, output: settings.output, traceRuns: false,
                counts: settings.counts)
        }
        var executor = ProcessExecutor(launches: launches, interrupt: interrupt)
        executor.spawner = spawner
        let coldCache: PageCacheEvictor?
        do {
            coldCache = settings.mode == .cold ? try PageCacheEvictor(dropAllCaches: false) : nil
        } catch {
            throw .usage("\(error)")
        }
        var runner = GateRunner(
            base: base, head: head, mode: settings.mode, warmup: settings.warmup, rule: rule, maxTime: settings.maxTime,
            executor: executor, coldCache: coldCache, interrupt: interrupt)
        runner.instructionRule = instructionRule
        runner.progress = progress
        let measurement = runner.run()
        var summary = GateReport.summary(
            verdict: measurement.verdict, stop: measurement.stop, final: measurement.final, threshold: rule.threshold,
            elapsed: measurement.elapsed, smallestResolvable: measurement.smallestResolvable(threshold: rule.threshold))
        if let instructionRule, let counted = measurement.instructions {
            summary = GateReport.summary(
                summary, verdict: measurement.verdict, time: measurement.final, instructions: counted,
                threshold: instructionRule.threshold)
        }
        return GateDocument(
            base: Self.commandLine(base), head: Self.commandLine(head), mode: settings.mode, rule: rule,
            measurement: measurement, summary: summary)
    }

    /// The target's command as a person would type it.
    static func commandLine(_ target: LaunchTarget) -> String {
        target.arguments.map(\.string).map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }
}
