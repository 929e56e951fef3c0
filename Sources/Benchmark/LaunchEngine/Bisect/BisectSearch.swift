/// The search of a bisect: which commit to measure next and what each
/// verdict means, with no git and no launching in it, so scripted verdicts
/// drive it in tests (`docs/bisect.md`, "The search").
///
/// The range is the commits after the good revision up to the bad one,
/// oldest first; index `count - 1` is the bad revision. The good revision
/// is "index -1".
///
/// 1. Confirm: the bad revision against the good one must be regressed.
///    Unchanged or improved ends the search (not slower); inconclusive is
///    measured again with a longer budget, and ends it if it stays so.
/// 2. Halve: the untested commit nearest the middle of the open range
///    (last known good, first known slow) is gated against the good
///    revision. Regressed: it is slow. Unchanged or improved: it is good.
/// 3. Inconclusive is never guessed: the same gate again with a longer
///    budget; if that is inconclusive too, the bad revision is gated against
///    the commit: bad still regressed against it means the slowdown came
///    after it (good); unchanged or improved means it is already as slow as
///    the bad one (slow); inconclusive again ends the search, naming the
///    commit and the range still open.
/// 4. A commit that cannot be measured (its build failed, its program did
///    not launch) is skipped, and its neighbour nearest the middle tried.
///    When only skipped commits are left between the last good and the
///    first slow, the answer is those commits and the first slow one.
package struct BisectSearch: Sendable {
    /// The commits in the range, the bad one included.
    package let count: Int
    /// Every question asked, with its answer, in order.
    package private(set) var steps: [(question: BisectQuestion, answer: BisectAnswer)] = []
    /// The commits skipped, with why.
    package private(set) var skipped: [Int: String] = [:]
    /// The last commit known good (-1: the good revision).
    package private(set) var lastGood = -1
    /// The first commit known slow.
    package private(set) var firstSlow: Int

    /// A search over `count` commits (at least 1: the bad revision).
    package init(count: Int) {
        self.count = max(count, 1)
        firstSlow = self.count - 1
    }

    /// Commits still to be told apart: those strictly between the last good
    /// and the first slow that are not skipped.
    package var untested: [Int] {
        guard firstSlow - lastGood > 1 else { return [] }
        return (lastGood + 1..<firstSlow).filter { skipped[$0] == nil }
    }

    /// About how many halvings are left: ⌈log₂(untested + 1)⌉.
    package var stepsLeft: Int {
        var left = untested.count
        var steps = 0
        while left > 0 {
            left /= 2
            steps += 1
        }
        return steps
    }

    /// The next commit to test: the untested one nearest the middle of the
    /// open range (the older one on a tie), as `git bisect skip` moves to a
    /// neighbour of a skipped commit.
    package var next: Int? {
        let middle = Double(lastGood + firstSlow) / 2
        return untested.min { abs(Double($0) - middle) < abs(Double($1) - middle) }
    }

    /// Runs the search to its end, asking `ask` for each measurement.
    package mutating func run<E: Error>(_ ask: (BisectQuestion) throws(E) -> BisectAnswer) throws(E) -> BisectConclusion {
        switch try record(.confirm, ask) {
        case .verdict(.regressed): break
        case .verdict(.inconclusive):
            switch try record(.confirmLonger, ask) {
            case .verdict(.regressed): break
            case .verdict(.inconclusive): return .inconclusive(index: nil, lastGood: -1, firstSlow: count - 1)
            case .verdict(let verdict): return .notSlower(verdict)
            case .untestable(let reason): return .untestable(reason)
            }
        case .verdict(let verdict): return .notSlower(verdict)
        case .untestable(let reason): return .untestable(reason)
        }
        while let index = next {
            switch try classify(index, ask) {
            case .slow: firstSlow = index
            case .good: lastGood = index
            case .skipped(let reason): skipped[index] = reason
            case .undecided: return .inconclusive(index: index, lastGood: lastGood, firstSlow: firstSlow)
            }
        }
        let left = firstSlow - lastGood > 1 ? Array(lastGood + 1..<firstSlow) : []
        return left.isEmpty ? .found(firstSlow) : .ambiguous(left + [firstSlow])
    }

    /// What one commit turned out to be.
    private enum Class {
        case slow, good, undecided
        case skipped(String)
    }

    private mutating func classify<E: Error>(
        _ index: Int, _ ask: (BisectQuestion) throws(E) -> BisectAnswer
    ) throws(E) -> Class {
        for question in [BisectQuestion.test(index), .testLonger(index)] {
            switch try record(question, ask) {
            case .verdict(.regressed): return .slow
            case .verdict(.unchanged), .verdict(.improved): return .good
            case .verdict(.inconclusive): continue
            case .untestable(let reason): return .skipped(reason)
            }
        }
        switch try record(.againstBad(index), ask) {
        case .verdict(.regressed): return .good
        case .verdict(.unchanged), .verdict(.improved): return .slow
        case .verdict(.inconclusive): return .undecided
        case .untestable(let reason): return .skipped(reason)
        }
    }

    private mutating func record<E: Error>(
        _ question: BisectQuestion, _ ask: (BisectQuestion) throws(E) -> BisectAnswer
    ) throws(E) -> BisectAnswer {
        let answer = try ask(question)
        steps.append((question, answer))
        return answer
    }
}
