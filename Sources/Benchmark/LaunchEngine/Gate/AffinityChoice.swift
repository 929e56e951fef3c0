import LaunchSupport

/// What `gate --affinity auto` chose, and why: the pilot's trials and the
/// rule below (docs/gate.md, "Pinning").
///
/// The rule, on the medians of each setting: a launch that is faster
/// unpinned than on its fastest single CPU by more than `parallelMargin`,
/// base or head, stays unpinned: its threads run at once, and pinned the
/// gate would judge another launch (a change that moves work onto a
/// parallel thread would be invisible), or the CPUs it would be pinned to
/// are busy with something else. Otherwise it is pinned to the CPU where
/// the two sides together were fastest: its launch is one thread's work,
/// which pinned does not move between CPUs, pairs with every run, and on
/// this machine resolved a change with fewer runs (docs/gate.md, "Pinning").
public struct AffinityChoice: Sendable, Equatable, Codable {
    /// Every setting tried, unpinned first.
    public var trials: [AffinityTrial]
    /// The CPUs the gate ran on ("0"); nil: unpinned.
    public var chosen: String?
    /// Why, in a sentence.
    public var reason: String
    /// Whether the rule found the launch faster unpinned than on any one
    /// CPU by more than ``parallelMargin``: it is no one CPU's, so the gate
    /// pairs neighbouring runs whatever their CPU (`GatePairing`). False
    /// when pinned, and when the pilot could not decide.
    public var spansCPUs: Bool
    /// Measured pilot runs, both sides.
    public var runs: Int
    /// Seconds the pilot took (counted in the gate's budget and elapsed time).
    public var elapsed: Double

    /// How much faster unpinned than on the fastest CPU a launch may be and
    /// still be pinned: 5%. The vCPUs of this machine differ by up to 6%
    /// in speed, and the launches measured for docs/gate.md were either
    /// within 2.5% (one thread's work) or 9–30% faster unpinned (threads
    /// that run at once).
    public static let parallelMargin = 0.05

    /// A choice as recorded.
    public init(trials: [AffinityTrial], chosen: String?, reason: String, spansCPUs: Bool = false, runs: Int, elapsed: Double) {
        self.trials = trials
        self.chosen = chosen
        self.reason = reason
        self.spansCPUs = spansCPUs
        self.runs = runs
        self.elapsed = elapsed
    }

    /// The rule on `trials` (the unpinned one has `cpus` nil): the index of
    /// the trial to pin to (nil: stay unpinned), whether the launch spans
    /// CPUs (``spansCPUs``), and why.
    package static func choose(_ trials: [AffinityTrial]) -> (index: Int?, spansCPUs: Bool, reason: String) {
        guard let unpinned = trials.first(where: { $0.cpus == nil }), unpinned.runs > 0 else {
            return (nil, false, "no unpinned runs to compare with")
        }
        let pinned = trials.indices.filter { trials[$0].cpus != nil && trials[$0].runs > 0 && trials[$0].baseMedian > 0 }
        guard !pinned.isEmpty else { return (nil, false, "no pinned runs to compare with") }
        for (side, median) in [("base", \AffinityTrial.baseMedian), ("head", \AffinityTrial.headMedian)] {
            guard let fastest = pinned.map({ trials[$0][keyPath: median] }).min(), fastest > 0 else { continue }
            let gain = 1 - unpinned[keyPath: median] / fastest
            if gain > parallelMargin {
                return (
                    nil, true,
                    "the \(side) launches \(percent(gain)) faster unpinned than on its fastest CPU: its threads run at once, "
                        + "or the CPUs are busy with something else"
                )
            }
        }
        let speed = { (trial: AffinityTrial) in (trial.baseMedian * trial.headMedian).squareRoot() }
        let best = pinned.min { speed(trials[$0]) < speed(trials[$1]) }!
        let slower = speed(unpinned) / speed(trials[best]) - 1
        let comparison = slower >= 0 ? "\(percent(slower)) slower unpinned" : "at most \(percent(-slower)) faster unpinned"
        return (best, false, "the launch is \(comparison) than on its fastest CPU: one thread's work, measured without moving between CPUs")
    }

    /// 0.0123 as "1.2%".
    private static func percent(_ fraction: Double) -> String { HumanUnits.fixed(fraction * 100, decimals: 1) + "%" }
}
