import Foundation

/// The results of a gate as `--export-json` writes them: the verdict and
/// its interval, every look, the noise floor, and every run in order.
public struct GateDocument: Sendable, Codable {
    /// "launchprof-gate/1".
    public var schema = GateDocument.currentSchema
    /// The schema this version writes.
    public static let currentSchema = "launchprof-gate/1"
    /// The base command, as given.
    public var base: String
    /// The head command, as given.
    public var head: String
    /// cold or warm.
    public var mode: LaunchMode
    /// The threshold, as a fraction.
    public var threshold: Double
    /// The total chance of a wrong verdict.
    public var alpha: Double
    /// The error-spending schedule.
    public var spending: ErrorSpending
    /// The trimmed mean's guard: the fraction its trimmed mean drops from
    /// each tail of the pairs; nil when the guard was off.
    public var trimming: Double?
    /// regressed, improved, unchanged or inconclusive; nil when a run
    /// failed or the gate was interrupted.
    public var verdict: ChangeVerdict?
    /// What the command exits with.
    public var exitStatus: Int32
    /// Why measuring ended: "decided", "the budget of 120 s ended", a failure.
    public var stop: String
    /// The one-line verdict, as the terminal prints it.
    public var summary: String
    /// Every look; the last decided (or closed) the gate.
    public var looks: [GateLook]
    /// The base against itself.
    public var noiseFloor: GateNoiseFloor?
    /// The smallest change the session could have called regressed or
    /// improved; nil when its final interval fell short of its confidence.
    public var smallestResolvable: Double?
    /// For an inconclusive gate: the seconds of measuring, at this
    /// session's pace, after which the interval would have narrowed to the
    /// estimate's distance from the threshold
    /// (`GateMeasurement.growthToResolve(threshold:)`); nil otherwise.
    public var timeToResolve: Double?
    /// `--affinity` as given ("0", "1,3") or as `--affinity auto` chose
    /// it, nil when the programs ran where the scheduler put them.
    public var affinity: String?
    /// With `--affinity auto`: the pilot's trials and what it chose.
    public var affinityChoice: AffinityChoice?
    /// With `--counts`: instructions to ready, head over base.
    public var instructions: GateLook?
    /// The base's median time to ready, in nanoseconds.
    public var baseMedian: Double?
    /// The head's median time to ready, in nanoseconds.
    public var headMedian: Double?
    /// Same-CPU pairs, per CPU ("-1": unknown).
    public var pairsByCPU: [String: Int]
    /// Pairs whose runs ran on different CPUs; nil (absent) when runs
    /// paired only on the same CPU (docs/gate.md, "Pairs when the launch
    /// spans CPUs").
    public var pairsAcrossCPUs: Int?
    /// Runs left out: no run of the other side near them on their CPU.
    public var unpaired: Int
    /// Seconds spent measuring.
    public var elapsed: Double
    /// Every measured run, in order.
    public var runs: [GateObservation]
    /// The base's measured runs, all their figures.
    public var baseRuns: [RunMeasurement]
    /// The head's measured runs, all their figures.
    public var headRuns: [RunMeasurement]
    /// A regressed verdict's Why: what grew (nil for other verdicts, or
    /// with `--why-runs 0`).
    package var why: GateWhy?

    /// A regressed verdict's Why as the terminal prints it, one line per
    /// contributor and note (empty when there is none); the JSON has it
    /// whole under `why`.
    public var whyLines: [String] { why?.lines ?? [] }

    /// The document of `measurement`, a gate of `head` against `base`.
    package init(
        base: String, head: String, mode: LaunchMode, rule: SequentialDecisionRule, measurement: GateMeasurement, summary: String
    ) {
        self.base = base
        self.head = head
        self.mode = mode
        threshold = rule.threshold
        alpha = rule.alpha
        spending = rule.spending
        trimming = rule.trimming
        verdict = measurement.verdict
        exitStatus = measurement.exitStatus.rawValue
        stop = measurement.stop.description
        self.summary = summary
        looks = measurement.looks
        noiseFloor = measurement.noiseFloor
        smallestResolvable = measurement.smallestResolvable(threshold: rule.threshold)
        timeToResolve = measurement.growthToResolve(threshold: rule.threshold).map { $0 * measurement.elapsed }
        instructions = measurement.instructions
        baseMedian = Statistics.median(measurement.observations.filter { $0.side == .base }.map(\.value))
        headMedian = Statistics.median(measurement.observations.filter { $0.side == .head }.map(\.value))
        pairsByCPU = Dictionary(uniqueKeysWithValues: measurement.pairsByCPU.map { (String($0.key), $0.value) })
        pairsAcrossCPUs = measurement.pairsAcrossCPUs
        unpaired = measurement.unpaired
        elapsed = measurement.elapsed
        runs = measurement.observations
        baseRuns = measurement.baseRuns
        headRuns = measurement.headRuns
    }

    /// The document as pretty, key-sorted JSON.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
