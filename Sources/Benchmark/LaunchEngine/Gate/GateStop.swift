import LaunchSupport

/// Why a gate's measuring ended.
package enum GateStop: Sendable, Equatable {
    /// A look's interval decided the verdict.
    case decided
    /// The most runs per side (--max-runs) were taken.
    case maxRuns(Int)
    /// The measuring time (--max-time) ran out.
    case maxTime(Duration)
    /// A run failed (crash, timeout, non-zero exit, not ready).
    case failed(RunFailure)
    /// SIGINT or a cancelled task stopped it.
    case interrupted

    /// "the budget of 120 s ended" and the like.
    package var description: String {
        switch self {
        case .decided: "decided"
        case .maxRuns(let runs): "the budget of \(runs) runs per side ended"
        case .maxTime(let time): "the budget of \(HumanUnits.significant(time.seconds)) s ended"
        case .failed(let failure): "\(failure)"
        case .interrupted: "interrupted"
        }
    }
}
