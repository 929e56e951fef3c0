/// What a gate concluded about the head against the base.
public enum ChangeVerdict: String, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The change's interval lies above +threshold.
    case regressed
    /// The change's interval lies below −threshold.
    case improved
    /// The change's interval lies inside ±threshold: equivalent within it.
    case unchanged
    /// The budget ended first: the interval still straddles a threshold.
    case inconclusive

    public var description: String { rawValue }

    /// What `launchprof gate` exits with for this verdict (docs/gate.md).
    public var exitStatus: LaunchExitStatus {
        switch self {
        case .regressed: .gateFailed
        case .improved, .unchanged: .success
        case .inconclusive: .inconclusive
        }
    }
}
