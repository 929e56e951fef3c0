/// What a bisect asks its driver to measure next. Commits are named by their
/// index in the range, oldest first; the last one is the bad revision, and
/// the good revision (before index 0) is always the base of a step unless
/// said otherwise.
package enum BisectQuestion: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The bad revision against the good one: is it slower at all?
    case confirm
    /// The confirmation again with a longer budget, the first was inconclusive.
    case confirmLonger
    /// The commit at this index against the good revision.
    case test(Int)
    /// The same gate again with a longer budget: the first was inconclusive.
    case testLonger(Int)
    /// The bad revision against the commit at this index (the commit is the
    /// base): is the bad side still slower than it?
    case againstBad(Int)

    /// The index of the commit this question measures, nil for the confirmation.
    package var index: Int? {
        switch self {
        case .confirm, .confirmLonger: nil
        case .test(let index), .testLonger(let index), .againstBad(let index): index
        }
    }

    /// "confirm", "test", "test-longer", "against-bad": the JSON's step kind.
    package var kind: String {
        switch self {
        case .confirm: "confirm"
        case .confirmLonger: "confirm-longer"
        case .test: "test"
        case .testLonger: "test-longer"
        case .againstBad: "against-bad"
        }
    }

    package var description: String {
        switch self {
        case .confirm: "bad against good"
        case .confirmLonger: "bad against good, longer"
        case .test(let index): "commit \(index) against good"
        case .testLonger(let index): "commit \(index) against good, longer"
        case .againstBad(let index): "bad against commit \(index)"
        }
    }
}
