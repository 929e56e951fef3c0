import Foundation

/// What a bisect found, as `--export-json` writes it: the answer, its
/// effect, every step, and the skipped commits.
public struct BisectDocument: Sendable, Codable {
    /// "launchprof-bisect/1".
    public var schema = BisectDocument.currentSchema
    /// The schema this version writes.
    public static let currentSchema = "launchprof-bisect/1"
    /// The good revision's commit.
    public var good: BisectCommit
    /// The bad revision's commit.
    public var bad: BisectCommit
    /// Commits after the good one up to the bad one, on the first-parent chain.
    public var commits: Int
    /// The gates' threshold, as a fraction.
    public var threshold: Double
    /// "found", "ambiguous", "not-slower", "inconclusive", "untestable" or "interrupted".
    public var outcome: String
    /// What `launchprof bisect` exits with.
    public var exitStatus: Int32
    /// The answer in one line, as the terminal prints it.
    public var summary: String
    /// The first slow commit, when found.
    public var firstSlow: BisectCommit?
    /// When skipped commits leave several: every candidate, oldest first.
    public var candidates: [BisectCommit]
    /// The commits skipped, with why.
    public var skipped: [BisectSkip]
    /// The first slow commit's change and interval.
    public var effect: GateLook?
    /// Where `effect` comes from: "its gate against its parent (step 7)" or
    /// "step 3, against the good revision".
    public var effectSource: String?
    /// The gate `effect` comes from, whole (its runs, its noise floor and
    /// whatever else the gate reports).
    public var effectGate: GateDocument?
    /// Every step, in order.
    public var steps: [BisectStep]
    /// Seconds from start to answer.
    public var elapsed: Double

    /// A bisect's document.
    public init(
        good: BisectCommit, bad: BisectCommit, commits: Int, threshold: Double, outcome: String, exitStatus: Int32, summary: String,
        firstSlow: BisectCommit?, candidates: [BisectCommit], skipped: [BisectSkip], effect: GateLook?, effectSource: String?,
        effectGate: GateDocument?, steps: [BisectStep], elapsed: Double
    ) {
        self.good = good
        self.bad = bad
        self.commits = commits
        self.threshold = threshold
        self.outcome = outcome
        self.exitStatus = exitStatus
        self.summary = summary
        self.firstSlow = firstSlow
        self.candidates = candidates
        self.skipped = skipped
        self.effect = effect
        self.effectSource = effectSource
        self.effectGate = effectGate
        self.steps = steps
        self.elapsed = elapsed
    }

    /// The document as pretty, key-sorted JSON.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
