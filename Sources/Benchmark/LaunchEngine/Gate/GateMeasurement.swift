/// What a gate measured and decided: every run of both sides in order,
/// each look, the noise floor, and why it stopped.
package struct GateMeasurement: Sendable {
    /// The verdict; nil when a run failed or the gate was interrupted.
    package var verdict: ChangeVerdict?
    /// Why measuring ended.
    package var stop: GateStop
    /// Every look taken, the deciding (or closing) one last.
    package var looks: [GateLook] = []
    /// The base against itself.
    package var noiseFloor: GateNoiseFloor?
    /// With `--counts`: the same rule on instructions to ready, decided at
    /// the final pairs (nil when not counted).
    package var instructions: GateLook?
    /// Every measured run, in order, both sides.
    package var observations: [GateObservation] = []
    /// The base's measured runs, in order.
    package var baseRuns: [RunMeasurement] = []
    /// The head's measured runs, in order.
    package var headRuns: [RunMeasurement] = []
    /// Runs left out because no run of the other side ran near them (on the same CPU).
    package var unpaired = 0
    /// Pairs per CPU ("-1" for an unknown CPU).
    package var pairsByCPU: [Int: Int] = [:]
    /// Pairs whose runs ran on different CPUs; nil when runs paired only
    /// on the same CPU (`GateRunner/sameCPUPairs`).
    package var pairsAcrossCPUs: Int?
    /// Seconds from the first measured run to the last.
    package var elapsed: Double = 0

    /// The final look, if any.
    package var final: GateLook? { looks.last }

    /// What `launchprof gate` exits with (docs/gate.md): 0 unchanged or
    /// improved, 1 regressed, 3 a launch failed, 4 inconclusive, 130
    /// interrupted.
    package var exitStatus: LaunchExitStatus {
        switch stop {
        case .failed: return .launchFailed
        case .interrupted: return .interrupted
        default: return verdict?.exitStatus ?? .inconclusive
        }
    }

    /// The smallest change this session could have called regressed or
    /// improved at its final precision: the threshold plus the final
    /// interval's half-width (a change that large would, with an interval
    /// as wide, have lain beyond the threshold about half the time). Nil
    /// when the final interval is short of its confidence (too few pairs
    /// for any pair of ranks to reach it): then no change could be resolved.
    package func smallestResolvable(threshold: Double) -> Double? {
        guard let final, !final.isShortOfConfidence else { return nil }
        return threshold + final.halfWidth
    }

    /// For an inconclusive gate: how many times its pairs a session at the
    /// same pace would need for the interval to narrow to the final
    /// estimate's distance from the nearer of ±threshold: (part / distance)²,
    /// where part is the interval's part on the threshold's side of the
    /// estimate, since an interval's width falls as one over the square root
    /// of the pairs. Such a session would decide about half the time if the
    /// change is what this one estimated: a projection from one estimate,
    /// not a promise. Nil for any other verdict, when the final interval
    /// fell short of its confidence, and when the estimate lies on the
    /// threshold.
    package func growthToResolve(threshold: Double) -> Double? {
        guard verdict == .inconclusive, let final, !final.isShortOfConfidence else { return nil }
        // When only the trimmed mean's guard held the verdict, its interval must narrow.
        let (change, low, high) = final.pending(threshold: threshold)
        let distance = abs(abs(change) - threshold)
        // The bound that must cross the threshold: the lower one above
        // +threshold or inside it below 0, else the upper one.
        let lowerFaces = change > threshold || (change < 0 && change >= -threshold)
        let part = lowerFaces ? change - low : high - change
        guard distance > 0, part > 0 else { return nil }
        let ratio = part / distance
        return max(1, ratio * ratio)
    }
}
