import LaunchEngine

extension BenchmarkSettings {
    /// How `target` of `plan` is launched, measured or profiled: these
    /// settings, the target's own schedule and launchprof's defaults resolved
    /// into one `LaunchPlan`, the one place a session decides them.
    package func launchPlan(for target: LaunchTarget, in plan: BenchmarkPlan, display: String?) -> LaunchPlan {
        LaunchPlan(
            target: target, ownTimeout: plan.timeout(of: target), timeout: timeout, grace: grace, output: output,
            measure: measure, traceRuns: traceRuns, counts: counts, display: display)
    }
}
