/// One finished run, for a progress display.
public struct BenchmarkProgress: Sendable {
    /// The run just measured: target, mode, index, warm-up or not.
    package var context: RunContext
    /// The run just measured, as observed.
    package var observed: ObservedRun
    /// Measured runs of this target and mode so far (0 during warm-ups).
    public var measuredRuns: Int
    /// The planned count when fixed (`--runs`), else nil.
    public var plannedRuns: Int?
    /// Median time to ready of this target and mode so far, ns.
    public var median: Double?
}
