import LaunchEngine

/// Command-line settings that replace a config file's, for every target.
public struct RunOverrides: Sendable, Equatable {
    /// Page-cache modes for every target.
    public var modes: [LaunchMode]?
    /// Warm-up runs for every target.
    public var warmup: Int?
    /// The stopping rule for every target.
    public var stopping: StoppingRule?
    /// The timeout for every target.
    public var timeout: Duration?
    /// The ready probe for every target.
    public var ready: ReadyProbe?
    /// Added to every target's own.
    public var evictPaths: [String]
    /// A launch on demand for every target (`--activate`); their ready
    /// probe becomes `response`.
    public var activation: SocketActivation?

    /// Overrides; nil leaves the config file's setting.
    public init(
        modes: [LaunchMode]? = nil, warmup: Int? = nil, stopping: StoppingRule? = nil, timeout: Duration? = nil,
        ready: ReadyProbe? = nil, evictPaths: [String] = [], activation: SocketActivation? = nil
    ) {
        self.modes = modes
        self.warmup = warmup
        self.stopping = stopping
        self.timeout = timeout
        self.ready = ready
        self.evictPaths = evictPaths
        self.activation = activation
    }

    /// `target` with these overrides' ready probe and activation.
    func apply(to target: inout LaunchTarget) {
        if let ready { target.ready = ready }
        if let activation {
            target.activation = activation
            target.ready = .response
        }
        target.evictPaths += evictPaths
    }
}

/// The targets `--target` named, when one is not in the config.
public struct TargetSelectionError: Error, Equatable, CustomStringConvertible {
    /// The config file.
    public var file: String
    /// The names asked for that are not targets.
    public var unknown: [String]
    /// The targets there are.
    public var known: [String]

    public var description: String {
        "\(file) has no target named \(unknown.map { "'\($0)'" }.joined(separator: ", ")) "
            + "(targets: \(known.joined(separator: ", ")))"
    }
}

extension LaunchConfig {
    /// The benchmark plan for the targets `selected` names (all when empty),
    /// plus every reference target their ratio budgets need, in file order.
    /// A setting's precedence: command line, then the target's own, then the
    /// file's `defaults`, then launchprof's default.
    public func plan(
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
