/// When to stop measuring a target: adaptive stopping on the width of the
/// median's confidence interval, bounded by run counts and a minimum time.
///
/// Order of the checks: never more than `maxRuns`; never fewer than `minRuns`
/// nor before `minTime` has elapsed; then stop as soon as the 95% confidence
/// interval of the median time to ready is within ±`targetRelativeHalfWidth`
/// of the median. Failed runs count toward the run limits but give no
/// samples, so a target that keeps failing runs until `maxRuns`.
public struct StoppingRule: Sendable, Equatable {
    /// Measured runs at least.
    public var minRuns: Int
    /// Measured runs at most.
    public var maxRuns: Int
    /// Keep measuring at least this long (hyperfine's default is 3 s).
    public var minTime: Duration
    /// Stop when the median's CI half-width is at most this share of the
    /// median, e.g. 0.02 for ±2%. `nil` stops at `minRuns` once `minTime` passed.
    public var targetRelativeHalfWidth: Double?

    /// A rule: between `minRuns` and `maxRuns` runs, for at least `minTime`, until the median's confidence interval is within `targetRelativeHalfWidth` of it (nil: no such condition).
    public init(minRuns: Int = 10, maxRuns: Int = 200, minTime: Duration = .seconds(3), targetRelativeHalfWidth: Double? = 0.02) {
        precondition(minRuns >= 1 && maxRuns >= minRuns, "need 1 <= minRuns (\(minRuns)) <= maxRuns (\(maxRuns))")
        self.minRuns = minRuns
        self.maxRuns = maxRuns
        self.minTime = minTime
        self.targetRelativeHalfWidth = targetRelativeHalfWidth
    }

    /// Exactly `runs` runs (`--runs N`).
    public static func fixed(_ runs: Int) -> StoppingRule {
        StoppingRule(minRuns: runs, maxRuns: runs, minTime: .zero, targetRelativeHalfWidth: nil)
    }

    /// Whether to stop after the measured runs so far (warm-ups excluded),
    /// judged on the successful runs' time to ready.
    public func shouldStop(runsSoFar: [RunMeasurement], elapsed: Duration) -> Bool {
        let samples = runsSoFar.filter(\.exit.isSuccess).compactMap { Metric.wallToReady.value(in: $0) }
        return shouldStop(runCount: runsSoFar.count, samples: samples, elapsed: elapsed)
    }

    /// Whether to stop after `runCount` runs whose successful ones gave `samples`.
    public func shouldStop(runCount: Int, samples: [Double], elapsed: Duration) -> Bool {
        if runCount >= maxRuns { return true }
        if runCount < minRuns || elapsed < minTime { return false }
        guard let target = targetRelativeHalfWidth else { return true }
        guard let summary = MetricSummary(values: samples) else { return false }
        return summary.relativeHalfWidth <= target
    }
}
