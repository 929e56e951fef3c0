/// Where a gate is, after each run.
public struct GateProgress: Sendable, Equatable {
    /// Measured runs so far, both sides (warm-ups excluded).
    public var runs: Int
    /// Same-CPU head/base pairs so far.
    public var pairs: Int
    /// Seconds since the measured runs began.
    public var elapsed: Double
    /// The latest look, if one has been taken.
    public var look: GateLook?
    /// Whether the run just done was a warm-up.
    public var isWarmup: Bool
}
