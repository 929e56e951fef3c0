import LaunchProf

/// Why deferred work began when it did.
public enum DeferredStartReason: Sendable, Equatable, CustomStringConvertible {
    /// The process was idle: CPU share measured over the last window.
    case idle(cpuShare: Double)
    /// The policy's maximum wait is zero: no idle check.
    case idleCheckSkipped
    /// The process stayed busy for the whole maximum wait; last share seen.
    case timedOut(cpuShare: Double)
    /// ``DeferredInitializer/runNow()`` cut the waiting short.
    case forced

    public var description: String {
        switch self {
        case .idle(let share): "idle (cpu share \(percent(share)))"
        case .idleCheckSkipped: "no idle check"
        case .timedOut(let share): "maximum idle wait reached (cpu share \(percent(share)))"
        case .forced: "forced by runNow()"
        }
    }

    private func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
}
