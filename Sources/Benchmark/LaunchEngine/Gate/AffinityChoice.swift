import LaunchSupport

/// What `gate --affinity auto` chose, and why: the pilot's trials and the
/// rule below (docs/gate.md, "Pinning: --affinity auto").
///
/// The rule: a launch that is faster unpinned than on the fastest single
/// CPU by more than `parallelMargin`, for base or head, has threads that
/// run at once, and pinning would judge another launch (a change that
/// moves work onto a parallel thread would be invisible): it stays
/// unpinned. Otherwise it is pinned to the CPU whose pairs gave the
/// narrowest interval, if that is narrower than unpinned; else it stays
/// unpinned. A wrong choice of the second kind costs only precision.
public struct AffinityChoice: Sendable, Equatable, Codable {
    /// Every setting tried, unpinned first.
    public var trials: [AffinityTrial]
    /// The CPUs the gate ran on ("0"); nil: unpinned.
    public var chosen: String?
    /// Why, in a sentence.
    public var reason: String
    /// Measured pilot runs, both sides.
    public var runs: Int
    /// Seconds the pilot took (counted in the gate's budget and elapsed time).
    public var elapsed: Double

    /// How much faster unpinned than on the fastest CPU a launch may be and
    /// still be pinned: 5%. The vCPUs of this machine differ by up to 6%
    /// in speed, and the launches measured for docs/gate.md were either
    /// within 2.5% (one thread's work) or 9–24% faster unpinned (threads
    /// that run at once).
    public static let parallelMargin = 0.05

    /// A choice as recorded.
    public init(trials: [AffinityTrial], chosen: String?, reason: String, runs: Int, elapsed: Double) {
        self.trials = trials
        self.chosen = chosen
        self.reason = reason
        self.runs = runs
        self.elapsed = elapsed
    }

    /// The rule on `trials` (the unpinned one has `cpus` nil): the index of
    /// the trial to pin to (nil: stay unpinned) and why.
    package static func choose(_ trials: [AffinityTrial]) -> (index: Int?, reason: String) {
        guard let unpinned = trials.first(where: { $0.cpus == nil }) else { return (nil, "no unpinned trial to compare with") }
        let pinned = trials.indices.filter { trials[$0].cpus != nil && trials[$0].pairs > 0 }
        guard !pinned.isEmpty, unpinned.pairs > 0 else { return (nil, "too few pilot runs to compare") }
        for (side, median) in [("base", \AffinityTrial.baseMedian), ("head", \AffinityTrial.headMedian)] {
            guard let fastest = pinned.map({ trials[$0][keyPath: median] }).min(), fastest > 0 else { continue }
            let gain = 1 - unpinned[keyPath: median] / fastest
            if gain > parallelMargin {
                return (
                    nil,
                    "the \(side) launches \(percent(gain)) faster unpinned than on its fastest CPU: its threads run at once, "
                        + "and pinned the gate would judge another launch"
                )
            }
        }
        let width = { (trial: AffinityTrial) in trial.width ?? .infinity }
        let best = pinned.min { width(trials[$0]) < width(trials[$1]) }!
        guard width(trials[best]) < width(unpinned) else {
            return (nil, "pinned, its pairs' interval was no narrower (\(halfWidth(trials[best])) against \(halfWidth(unpinned)) unpinned)")
        }
        return (
            best,
            "its pairs' interval was \(halfWidth(trials[best])) pinned against \(halfWidth(unpinned)) unpinned, "
                + "and the launch is no faster unpinned"
        )
    }

    /// A trial's interval as "±1.2%", or "none" with too few pairs.
    private static func halfWidth(_ trial: AffinityTrial) -> String { trial.width.map { "±" + percent($0 / 2) } ?? "none" }

    /// 0.0123 as "1.2%".
    private static func percent(_ fraction: Double) -> String { HumanUnits.fixed(fraction * 100, decimals: 1) + "%" }
}
