import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

@Suite struct StatisticsComparisonTests {
    @Test func ratioOfMediansWithDeterministicBootstrapInterval() throws {
        let reference = (0..<30).map { 1_000_000 + Double($0 % 7) * 10_000 }
        let target = reference.map { $0 * 2 }
        let first = try #require(RelativeComparison(target: target, reference: reference))
        let again = try #require(RelativeComparison(target: target, reference: reference))
        #expect(first == again)  // fixed seed: same runs, same interval
        #expect(abs(first.ratio - 2) < 1e-12)
        #expect(first.low <= first.ratio && first.ratio <= first.high)
        #expect(first.high - first.low < 0.2)
        #expect(first.phrase(reference: "hello-c").hasSuffix("slower than hello-c"))
        #expect(first.phrase(reference: "hello-c").hasPrefix("2.00× ± "))
    }

    @Test func fasterTargetsAreInverted() throws {
        let reference = [4.0, 4.1, 3.9, 4.0, 4.05, 3.95, 4.0]
        let target = reference.map { $0 / 4 }
        let comparison = try #require(RelativeComparison(target: target, reference: reference))
        #expect(abs(comparison.ratio - 0.25) < 1e-12)
        #expect(comparison.phrase(reference: "big").hasPrefix("4.00× ± "))
        #expect(comparison.phrase(reference: "big").hasSuffix("faster than big"))
    }

    @Test func phraseDigitsFollowTheSizeOfTheFactor() {
        #expect(RelativeComparison(ratio: 1.84, low: 1.79, high: 1.89).phrase(reference: "c") == "1.84× ± 0.05 slower than c")
        #expect(RelativeComparison(ratio: 14.2, low: 13.4, high: 15.0).phrase(reference: "c") == "14.2× ± 0.8 slower than c")
        #expect(RelativeComparison(ratio: 198.2, low: 130, high: 274).phrase(reference: "c") == "198× ± 72 slower than c")
        #expect(RelativeComparison(ratio: 0.5, low: 0.4, high: 0.625).phrase(reference: "c") == "2.00× ± 0.45 faster than c")
    }

    @Test func noRatioWithoutData() {
        #expect(RelativeComparison(target: [], reference: [1]) == nil)
        #expect(RelativeComparison(target: [1], reference: [0, 0]) == nil)
    }

    @Test func fixedRunsStopExactly() {
        let rule = StoppingRule.fixed(3)
        #expect(!rule.shouldStop(runCount: 2, samples: [1, 2], elapsed: .seconds(100)))
        #expect(rule.shouldStop(runCount: 3, samples: [1, 2, 3], elapsed: .zero))
    }

    @Test func adaptiveStopWaitsForMinimumsThenANarrowInterval() {
        let rule = StoppingRule(minRuns: 10, maxRuns: 50, minTime: .seconds(1), targetRelativeHalfWidth: 0.02)
        let tight = (0..<20).map { 100 + Double($0 % 3) * 0.5 }
        let wide = (0..<20).map { 100 + Double($0 % 5) * 20 }
        #expect(!rule.shouldStop(runCount: 9, samples: Array(tight.prefix(9)), elapsed: .seconds(5)))
        #expect(!rule.shouldStop(runCount: 20, samples: tight, elapsed: .milliseconds(500)))
        #expect(rule.shouldStop(runCount: 20, samples: tight, elapsed: .seconds(2)))
        #expect(!rule.shouldStop(runCount: 20, samples: wide, elapsed: .seconds(2)))
        #expect(rule.shouldStop(runCount: 50, samples: wide, elapsed: .seconds(2)))
        // All runs failing: no samples, keep going to maxRuns.
        #expect(!rule.shouldStop(runCount: 20, samples: [], elapsed: .seconds(2)))
    }

    @Test func stoppingOnRunMeasurementsUsesSuccessfulTimeToReady() {
        let rule = StoppingRule(minRuns: 5, maxRuns: 100, minTime: .zero, targetRelativeHalfWidth: 0.05)
        let runs = (0..<12).map { RunMeasurement(index: $0, wallToExit: 1_000_000, wallToReady: 1_000_000, exit: .exited(0)) }
        #expect(rule.shouldStop(runsSoFar: runs, elapsed: .seconds(1)))
        let failing = (0..<12).map { RunMeasurement(index: $0, exit: .exited(1)) }
        #expect(!rule.shouldStop(runsSoFar: failing, elapsed: .seconds(1)))
    }
}
