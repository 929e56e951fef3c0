import Glibc
import LaunchAnalysis

/// The real executor: the spawner and the run loop, each run launched as its
/// target's `LaunchPlan` says.
package struct ProcessExecutor: RunExecutor {
    /// Starts the processes.
    package var spawner = Spawner()
    /// Each target's launches, by target name; a target without one is
    /// launched with launchprof's defaults.
    package var launches: [String: LaunchPlan]
    /// Stops the run in progress when it fires.
    package var interrupt: InterruptMonitor?
    /// Where each traced run's trace is written: the run's own intervals are
    /// read from it, then it is removed; nil: no run is traced.
    package var traceDirectory: String?

    /// An executor of these plans.
    package init(launches: [LaunchPlan] = [], interrupt: InterruptMonitor? = nil) {
        self.launches = Dictionary(launches.map { ($0.target.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.interrupt = interrupt
    }

    /// The plan `target` is launched with.
    package func launchPlan(of target: LaunchTarget) -> LaunchPlan { launches[target.name] ?? LaunchPlan(target: target) }

    package func execute(_ context: RunContext) throws -> ObservedRun {
        let plan = launchPlan(of: context.target)
        let trace = plan.traces(context) ? traceDirectory.map { "\($0)/run-\(UInt64.random(in: 0...UInt64.max)).lptrace" } : nil
        var observed = try spawner.run(plan.request(for: context, trace: trace), interrupt: interrupt)
        if let trace {
            defer { unlink(trace) }
            if let ready = observed.wallToReady, let read = try? TraceReader.read(path: trace) {
                observed.intervals = RunIntervals.times(in: read, readyAt: observed.startNanoseconds &+ ready)
            } else if observed.failure == nil {
                observed.notes.append(
                    "--trace-runs: the run wrote no readable trace (is the program linked with LaunchProf, and does it reach launch complete?)"
                )
            }
        }
        return observed
    }
}
