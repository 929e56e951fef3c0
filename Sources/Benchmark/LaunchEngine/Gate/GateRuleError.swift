/// A gate's decision rule that cannot work, named by the setting and value.
package enum GateRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The threshold is not a fraction in (0, 1).
    case threshold(Double)
    /// The total error is not in (0, 0.5).
    case alpha(Double)
    /// The first look or the most pairs cannot make a schedule.
    case looks(firstLook: Int, maxPairs: Int)

    package var description: String {
        switch self {
        case .threshold(let value):
            "--threshold \(value * 100)%: give a change between 0 and 100 percent (e.g. 2)"
        case .alpha(let value): "the gate's error rate \(value) must be above 0 and below 0.5 (e.g. 0.05)"
        case .looks(let first, let most):
            "the gate needs at least \(first) pairs before its first look but may take only \(most): raise --max-runs to \(first) or more"
        }
    }
}
