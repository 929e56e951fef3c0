/// One measured run of a gate: its place in the sequence, its side, what
/// it measured and where it ran.
public struct GateObservation: Sendable, Equatable, Codable {
    /// 0-based position among the gate's measured runs (both sides).
    public var position: Int
    /// Base or head.
    public var side: GateSide
    /// The measured value (nanoseconds to ready, or an instruction count);
    /// always positive.
    public var value: Double
    /// The CPU the run's process ran on; nil when unknown (all unknown runs
    /// are treated as one CPU).
    public var cpu: Int?

    /// A run at `position` of `side` that measured `value` on `cpu`.
    public init(position: Int, side: GateSide, value: Double, cpu: Int?) {
        self.position = position
        self.side = side
        self.value = value
        self.cpu = cpu
    }
}
