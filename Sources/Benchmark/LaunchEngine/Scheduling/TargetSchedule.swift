/// One target's own modes, warm-ups, stopping rule and timeout; nil keeps
/// the plan-wide setting.
package struct TargetSchedule: Sendable, Equatable {
    /// The target's page-cache modes; nil: the plan's.
    package var modes: [LaunchMode]?
    /// The target's warm-up runs; nil: the plan's.
    package var warmup: Int?
    /// The target's stopping rule; nil: the plan's.
    package var stopping: StoppingRule?
    /// The target's timeout; nil: the session's.
    package var timeout: Duration?

    /// A schedule; nil leaves each setting to the plan.
    package init(modes: [LaunchMode]? = nil, warmup: Int? = nil, stopping: StoppingRule? = nil, timeout: Duration? = nil) {
        self.modes = modes
        self.warmup = warmup
        self.stopping = stopping
        self.timeout = timeout
    }
}
