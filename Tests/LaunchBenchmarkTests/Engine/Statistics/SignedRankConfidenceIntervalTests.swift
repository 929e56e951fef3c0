import Foundation
import LaunchBenchmark
import Testing

/// The Wilcoxon signed-rank interval and the Hodges–Lehmann estimate,
/// against the published table and against brute force.
@Suite("Signed-rank confidence interval")
struct SignedRankConfidenceIntervalTests {
    /// Every Walsh average (xᵢ + xⱼ)/2, i ≤ j, sorted: what the fast
    /// search must agree with.
    static func walsh(_ values: [Double]) -> [Double] {
        var averages: [Double] = []
        for i in values.indices { for j in i..<values.count { averages.append((values[i] + values[j]) / 2) } }
        return averages.sorted()
    }

    @Test("n = 10 at 95%: ranks 9 and 47, coverage 1 − 2·25/1024 (Hollander, Wolfe & Chicken, Table A.4)")
    func table() throws {
        let ranks = try #require(SignedRankConfidenceInterval.ranks(count: 10, confidence: 0.95))
        #expect(ranks.lowerRank == 9)
        #expect(ranks.upperRank == 47)
        #expect(abs(ranks.coverage - (1 - 2 * 25.0 / 1024)) < 1e-12)
        // Too few values for 95%: [min, max] with the coverage it has.
        let tiny = try #require(SignedRankConfidenceInterval.ranks(count: 5, confidence: 0.95))
        #expect(tiny.lowerRank == 1 && tiny.upperRank == 15)
        #expect(tiny.coverage < 0.95)
        #expect(SignedRankConfidenceInterval.ranks(count: 0, confidence: 0.95) == nil)
    }

    @Test("the exact and the normal-approximation ranks meet at the switch-over")
    func approximation() throws {
        let limit = SignedRankConfidenceInterval.exactLimit
        let exact = try #require(SignedRankConfidenceInterval.ranks(count: limit, confidence: 0.99))
        let next = try #require(SignedRankConfidenceInterval.ranks(count: limit + 1, confidence: 0.99))
        // One more value adds up to limit + 1 Walsh averages below the bound.
        #expect(next.lowerRank >= exact.lowerRank && next.lowerRank <= exact.lowerRank + limit + 1)
        #expect(abs(next.coverage - 0.99) < 0.002 && next.coverage >= 0.99 - 1e-9)
    }

    @Test("the k-th Walsh average and the Hodges–Lehmann estimate agree with brute force")
    func bruteForce() throws {
        var generator = SeededGenerator(seed: 5)
        for count in [1, 2, 7, 30, 101] {
            let values = (0..<count).map { _ in Double.random(in: -0.1...0.2, using: &generator) }.sorted()
            let all = Self.walsh(values)
            for rank in Set([1, all.count / 3 + 1, all.count / 2 + 1, all.count]) {
                let fast = SignedRankConfidenceInterval.walshAverage(rank: rank, in: values)
                #expect(abs(fast - all[rank - 1]) < 1e-12, "n \(count), rank \(rank)")
            }
            let median =
                all.count % 2 == 1 ? all[all.count / 2] : (all[all.count / 2 - 1] + all[all.count / 2]) / 2
            #expect(abs(SignedRankConfidenceInterval.hodgesLehmann(values) - median) < 1e-12)
        }
        // Ties: a sample of one repeated value has every average equal to it.
        #expect(SignedRankConfidenceInterval.walshAverage(rank: 4, in: [0.5, 0.5, 0.5]) == 0.5)
    }

    @Test("a 95% interval covers the centre of a symmetric distribution in about 95% of samples")
    func coverage() throws {
        var generator = SeededGenerator(seed: 9)
        var covered = 0
        let samples = 400
        for _ in 0..<samples {
            // Symmetric about 0.03, with a long tail on both sides (a Laplace).
            let values = (0..<40).map { _ -> Double in
                let u = Double.random(in: -0.5..<0.5, using: &generator)
                return 0.03 - 0.02 * (u < 0 ? -1 : 1) * log(1 - 2 * abs(u))
            }.sorted()
            let ranks = try #require(SignedRankConfidenceInterval.ranks(count: values.count, confidence: 0.95))
            let (low, high) = ranks.bounds(in: values)
            if low <= 0.03, 0.03 <= high { covered += 1 }
        }
        // 95% of 400 is 380; 3 binomial standard errors are 13.
        #expect(covered >= 367, "covered \(covered) of \(samples)")
    }
}
