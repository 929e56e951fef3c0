import Foundation

/// What a bisect found, as `--export-json` writes it: the answer, its
/// effect, every step, and the skipped commits.
package struct BisectDocument: Sendable, Codable {
    /// "launchprof-bisect/1".
    package var schema = BisectDocument.currentSchema
    /// The schema this version writes.
    package static let currentSchema = "launchprof-bisect/1"
    /// The good revision's commit.
    package var good: BisectCommit
    /// The bad revision's commit.
    package var bad: BisectCommit
    /// Commits after the good one up to the bad one, on the first-parent chain.
    package var commits: Int
    /// The gates' threshold, as a fraction.
    package var threshold: Double
    /// "found", "ambiguous", "not-slower", "inconclusive", "untestable" or "interrupted".
    package var outcome: String
    /// What `launchprof bisect` exits with.
    package var exitStatus: Int32
    /// The answer in one line, as the terminal prints it.
    package var summary: String
    /// The first slow commit, when found.
    package var firstSlow: BisectCommit?
    /// When skipped commits leave several: every candidate, oldest first.
    package var candidates: [BisectCommit]
    /// The commits skipped, with why.
    package var skipped: [BisectSkip]
    /// The first slow commit's change and interval.
    package var effect: GateLook?
    /// Where `effect` comes from: "its gate against its parent (step 7)" or
    /// "step 3, against the good revision".
    package var effectSource: String?
    /// The gate `effect` comes from, whole (its runs, its noise floor and
    /// whatever else the gate reports).
    package var effectGate: GateDocument?
    /// Every step, in order.
    package var steps: [BisectStep]
    /// Seconds from start to answer.
    package var elapsed: Double

    /// A bisect's document.
    package init(
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
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
