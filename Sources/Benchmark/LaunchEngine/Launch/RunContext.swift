import Glibc
import LaunchAnalysis

/// Which run of the benchmark is about to happen.
package struct RunContext: Sendable, Equatable {
    /// The target launched.
    package var target: LaunchTarget
    /// Its page-cache mode.
    package var mode: LaunchMode
    /// 0-based among the warm-ups or among the measured runs.
    package var index: Int
    /// Whether the run is a warm-up (not measured).
    package var isWarmup: Bool

    /// The context of run `index` of `target` in `mode`.
    package init(target: LaunchTarget, mode: LaunchMode, index: Int, isWarmup: Bool) {
        self.target = target
        self.mode = mode
        self.index = index
        self.isWarmup = isWarmup
    }

    /// "warm-up 2" or "run 5" (1-based, as people count).
    package var runDescription: String { isWarmup ? "warm-up \(index + 1)" : "run \(index + 1)" }
}
