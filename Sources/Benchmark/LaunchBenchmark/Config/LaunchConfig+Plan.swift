import LaunchEngine

extension LaunchConfig {
    /// The benchmark plan for the targets `selected` names (all when empty),
    /// plus every reference target their ratio budgets need, in file order.
    /// A setting's precedence: command line, then the target's own, then the
    /// file's `defaults`, then launchprof's default.
    package func plan(
        selecting selected: [String] = [], overrides: RunOverrides = RunOverrides()
    ) throws(TargetSelectionError)
        -> BenchmarkPlan
    {
        let names = targets.map(\.name)
        let unknown = selected.filter { !names.contains($0) }
        guard unknown.isEmpty else { throw TargetSelectionError(file: path, unknown: unknown, known: names) }
        var wanted = Set(selected.isEmpty ? names : selected)
        for budget in budgets where wanted.contains(budget.target) {
            if case .ratio(_, let reference, _) = budget.limit { wanted.insert(reference) }
        }
        var chosen = targets.filter { wanted.contains($0.name) }
        for index in chosen.indices { overrides.apply(to: &chosen[index]) }
        var schedules: [String: TargetSchedule] = [:]
        for target in chosen {
            let own = self.schedules[target.name] ?? TargetSchedule()
            schedules[target.name] = TargetSchedule(
                modes: overrides.modes ?? own.modes ?? defaults.modes,
                warmup: overrides.warmup ?? own.warmup ?? defaults.warmup,
                stopping: overrides.stopping ?? own.stopping ?? defaults.stopping,
                timeout: overrides.timeout ?? own.timeout ?? defaults.timeout)
        }
        return BenchmarkPlan(targets: chosen, schedules: schedules)
    }
}
