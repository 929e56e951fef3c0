/// What `launchprof run` measures: targets, modes, how many runs.
package struct BenchmarkPlan: Sendable {
    /// What to launch, in the order reports list them.
    package var targets: [LaunchTarget]
    /// Every target runs in each of these modes.
    package var modes: [LaunchMode]
    /// Unrecorded runs per target and mode before measuring (hyperfine's --warmup).
    package var warmup: Int
    /// When to stop measuring each target and mode.
    package var stopping: StoppingRule
    /// Per target name, settings that replace the plan-wide ones (a config
    /// file can give each target its own modes, runs, warm-ups and timeout).
    package var schedules: [String: TargetSchedule]

    /// A plan: every target in `modes`, with `warmup` unmeasured runs and `stopping` deciding the measured runs, unless its schedule says otherwise.
    package init(
        targets: [LaunchTarget], modes: [LaunchMode] = [.warm], warmup: Int = 3, stopping: StoppingRule = StoppingRule(),
        schedules: [String: TargetSchedule] = [:]
    ) {
        self.targets = targets
        self.modes = modes
        self.warmup = warmup
        self.stopping = stopping
        self.schedules = schedules
    }

    /// The page-cache modes `target` runs in: its schedule's, else the plan's.
    package func modes(of target: LaunchTarget) -> [LaunchMode] { schedules[target.name]?.modes ?? modes }
    /// The warm-up runs of `target`: its schedule's, else the plan's.
    package func warmup(of target: LaunchTarget) -> Int { schedules[target.name]?.warmup ?? warmup }
    /// When `target` has enough measured runs: its schedule's rule, else the plan's.
    package func stopping(of target: LaunchTarget) -> StoppingRule { schedules[target.name]?.stopping ?? stopping }
    /// Every mode some target runs in.
    package var allModes: Set<LaunchMode> { Set(targets.flatMap { modes(of: $0) }) }
    /// The target's own timeout (its schedule's), nil when it has none;
    /// `LaunchPlan` decides which timeout wins.
    package func timeout(of target: LaunchTarget) -> Duration? { schedules[target.name]?.timeout }
}
