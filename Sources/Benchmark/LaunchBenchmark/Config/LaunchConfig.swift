import LaunchEngine

/// A `launchprof.yml`: targets to launch, their budgets, and the regression
/// settings. See docs/config.md for the format.
public struct LaunchConfig: Sendable, Equatable {
    /// The file it was read from, as given.
    public var path: String
    /// The targets, in file order.
    public var targets: [LaunchTarget]
    /// Per target name: its own modes, runs, warm-ups and timeout.
    package var schedules: [String: TargetSchedule]
    /// Settings for every target that does not give its own.
    package var defaults: TargetSchedule
    /// Every target's budgets, in file order.
    public var budgets: [Budget]
    /// The target others are reported relative to, and the default reference of ratio budgets.
    public var reference: String?
    /// Regression threshold (0.05 = 5%) and significance level, when set.
    public var threshold: Double?
    /// The significance level of the U test, when set.
    public var significance: Double?
    /// `counts: perf|callgrind`: count each measured launch's events (`--counts`).
    public var counts: CountSource?
    /// The `push:` section: where results go besides the files.
    public var push: PushConfig?

    /// A config with these contents; `ConfigReader` reads one from a file.
    package init(
        path: String, targets: [LaunchTarget], schedules: [String: TargetSchedule] = [:],
        defaults: TargetSchedule = TargetSchedule(), budgets: [Budget] = [], reference: String? = nil,
        threshold: Double? = nil, significance: Double? = nil
    ) {
        self.path = path
        self.targets = targets
        self.schedules = schedules
        self.defaults = defaults
        self.budgets = budgets
        self.reference = reference
        self.threshold = threshold
        self.significance = significance
    }

    /// The `push:` section of a config file: a Pushgateway, its job, and
    /// labels added to every series.
    public struct PushConfig: Sendable, Equatable {
        /// The gateway's URL; nil: push only when `--push-gateway` is given.
        public var gateway: String?
        /// The job name; nil: `launchprof`.
        public var job: String?
        /// Labels for every series (`--label` wins over them), by name.
        public var labels: [String: String]

        /// A section with these values.
        package init(gateway: String? = nil, job: String? = nil, labels: [String: String] = [:]) {
            self.gateway = gateway
            self.job = job
            self.labels = labels
        }
    }

    /// The file `launchprof run` reads when no `--config` is given.
    public static let defaultFileName = "launchprof.yml"
}
