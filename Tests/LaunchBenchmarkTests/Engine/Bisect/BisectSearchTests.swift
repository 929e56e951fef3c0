import Foundation
import LaunchBenchmark
import Testing

/// The bisect's search on scripted verdicts: no git, no launching, no timing.
@Suite("Bisect search")
struct BisectSearchTests {
    /// What a commit is in a script: slow or not, unbuildable, or
    /// inconclusive for a number of gates before it is decided.
    struct Script {
        var count: Int
        var firstSlow: Int
        var unbuildable: Set<Int> = []
        /// Gates of the commit against good that say inconclusive.
        var inconclusive: [Int: Int] = [:]
        /// The verdict of bad against the commit, for `againstBad`.
        var againstBad: [Int: ChangeVerdict] = [:]
        var confirm: [BisectAnswer] = [.verdict(.regressed)]
        var asked: [BisectQuestion] = []

        mutating func answer(_ question: BisectQuestion) -> BisectAnswer {
            asked.append(question)
            switch question {
            case .confirm: return confirm[0]
            case .confirmLonger: return confirm[1]
            case .test(let index), .testLonger(let index):
                if unbuildable.contains(index) { return .untestable("the build failed") }
                if let left = inconclusive[index], left > 0 {
                    inconclusive[index] = left - 1
                    return .verdict(.inconclusive)
                }
                return .verdict(index >= firstSlow ? .regressed : .unchanged)
            case .againstBad(let index): return .verdict(againstBad[index] ?? .inconclusive)
            }
        }
    }

    static func search(_ script: inout Script) -> (BisectConclusion, BisectSearch) {
        var search = BisectSearch(count: script.count)
        let conclusion = search.run { script.answer($0) }
        return (conclusion, search)
    }

    @Test("every first slow commit of every range up to 33 commits is found in at most 1 + ⌈log₂ n⌉ gates, none gated twice")
    func everyPosition() {
        for count in 1...33 {
            for slow in 0..<count {
                var script = Script(count: count, firstSlow: slow)
                let (conclusion, search) = Self.search(&script)
                #expect(conclusion == .found(slow), "\(count) commits, slow from \(slow)")
                let bound = 1 + (count > 1 ? Int(ceil(log2(Double(count)))) : 0)
                #expect(script.asked.count <= bound, "\(count) commits, slow from \(slow): \(script.asked)")
                let tested = script.asked.compactMap(\.index)
                #expect(Set(tested).count == tested.count)
                #expect(!tested.contains(count - 1), "the bad revision is known slow: never tested again")
                #expect(search.steps.count == script.asked.count)
            }
        }
    }

    @Test("a commit that does not build is skipped and its neighbour tested; the answer stays exact when the skip is not next to it")
    func skipFarFromTheAnswer() {
        var script = Script(count: 24, firstSlow: 17, unbuildable: [11])
        let (conclusion, search) = Self.search(&script)
        #expect(conclusion == .found(17))
        #expect(search.skipped == [11: "the build failed"])
        #expect(script.asked.contains(.test(11)))
        #expect(script.asked.contains(.test(12)) || script.asked.contains(.test(10)), "a neighbour of 11 was tried: \(script.asked)")
    }

    @Test("skipped commits right before the first slow one leave every candidate named, as git bisect does")
    func skipsMakeItAmbiguous() {
        var script = Script(count: 24, firstSlow: 13, unbuildable: [11, 12])
        let (conclusion, _) = Self.search(&script)
        #expect(conclusion == .ambiguous([11, 12, 13]))
        #expect(conclusion.exitStatus == 6)
        var last = Script(count: 5, firstSlow: 4, unbuildable: [0, 1, 2, 3])
        #expect(Self.search(&last).0 == .ambiguous([0, 1, 2, 3, 4]))
    }

    @Test("an inconclusive step is measured again with a longer budget, and that verdict counts")
    func inconclusiveMeasuredLonger() {
        var script = Script(count: 16, firstSlow: 9, inconclusive: [7: 1, 11: 1])
        let (conclusion, _) = Self.search(&script)
        #expect(conclusion == .found(9))
        #expect(script.asked.contains(.testLonger(7)))
        #expect(!script.asked.contains { if case .againstBad = $0 { true } else { false } })
    }

    @Test("inconclusive twice: the bad revision is gated against the commit; still slower means good, as slow means slow")
    func inconclusiveComparedWithBad() {
        // 7 is inconclusive against good both times; bad is still regressed
        // against it, so it counts as good and the answer is after it.
        var good = Script(count: 16, firstSlow: 8, inconclusive: [7: 2], againstBad: [7: .regressed])
        let goodSearch = Self.search(&good)
        #expect(goodSearch.0 == .found(8))
        #expect(good.asked.contains(.againstBad(7)))
        // 7 is as slow as bad: it is the first slow commit.
        var slow = Script(count: 16, firstSlow: 8, inconclusive: [7: 2], againstBad: [7: .unchanged])
        #expect(Self.search(&slow).0 == .found(7))
    }

    @Test("a commit inconclusive against good twice and against bad ends the search, naming the range still open: never guessed")
    func inconclusiveEverywhere() {
        var script = Script(count: 16, firstSlow: 8, inconclusive: [7: 2])
        let (conclusion, search) = Self.search(&script)
        #expect(conclusion == .inconclusive(index: 7, lastGood: -1, firstSlow: 15))
        #expect(conclusion.exitStatus == 4)
        #expect(search.steps.map(\.question) == [.confirm, .test(7), .testLonger(7), .againstBad(7)])
    }

    @Test("the confirmation: not slower stops at once (5); inconclusive is measured longer; untestable is 3")
    func confirmation() {
        for verdict in [ChangeVerdict.unchanged, .improved] {
            var script = Script(count: 10, firstSlow: 3, confirm: [.verdict(verdict)])
            let (conclusion, _) = Self.search(&script)
            #expect(conclusion == .notSlower(verdict))
            #expect(conclusion.exitStatus == 5)
            #expect(script.asked == [.confirm])
        }
        var twice = Script(count: 10, firstSlow: 3, confirm: [.verdict(.inconclusive), .verdict(.inconclusive)])
        #expect(Self.search(&twice).0 == .inconclusive(index: nil, lastGood: -1, firstSlow: 9))
        var later = Script(count: 10, firstSlow: 3, confirm: [.verdict(.inconclusive), .verdict(.regressed)])
        #expect(Self.search(&later).0 == .found(3))
        #expect(later.asked.prefix(2) == [.confirm, .confirmLonger])
        var failed = Script(count: 10, firstSlow: 3, confirm: [.untestable("the good program crashed")])
        let (conclusion, _) = Self.search(&failed)
        #expect(conclusion == .untestable("the good program crashed"))
        #expect(conclusion.exitStatus == 3)
    }

    @Test("an error the driver throws (an interrupt) ends the search with it, the steps so far kept")
    func interruptPropagates() {
        struct Interrupted: Error {}
        var search = BisectSearch(count: 20)
        var asked = 0
        #expect(throws: Interrupted.self) {
            try search.run { (question) throws(Interrupted) -> BisectAnswer in
                asked += 1
                if asked == 3 { throw Interrupted() }
                return .verdict(question == .confirm ? .regressed : .unchanged)
            }
        }
        #expect(search.steps.count == 2)
        #expect(search.lastGood == 9)
    }
}
