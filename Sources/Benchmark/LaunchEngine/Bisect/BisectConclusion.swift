/// How a bisect ended, before it is written down: indices are positions in
/// the range, oldest first (the last is the bad revision).
package enum BisectConclusion: Sendable, Equatable {
    /// The first slow commit.
    case found(Int)
    /// Skipped commits leave several candidates (oldest first, the last is
    /// the first commit known to be slow); any of them may be the first slow one.
    case ambiguous([Int])
    /// The confirmation said the bad revision is not slower than the good one.
    case notSlower(ChangeVerdict)
    /// A gate stayed inconclusive after every rule (`docs/bisect.md`): the
    /// commit it was about (nil: the confirmation), and the range still open:
    /// the last commit known good (-1: the good revision) and the first known slow.
    case inconclusive(index: Int?, lastGood: Int, firstSlow: Int)
    /// The bad or the good revision could not be measured in the confirmation.
    case untestable(String)

    /// What `launchprof bisect` exits with (`docs/bisect.md`): 0 found, 3 the
    /// confirmation could not launch, 4 inconclusive, 5 not slower, 6 ambiguous.
    package var exitStatus: Int32 {
        switch self {
        case .found: 0
        case .untestable: 3
        case .inconclusive: 4
        case .notSlower: 5
        case .ambiguous: 6
        }
    }

    /// "found", "ambiguous", "not-slower", "inconclusive" or "untestable": the JSON's outcome.
    package var outcome: String {
        switch self {
        case .found: "found"
        case .ambiguous: "ambiguous"
        case .notSlower: "not-slower"
        case .inconclusive: "inconclusive"
        case .untestable: "untestable"
        }
    }
}
