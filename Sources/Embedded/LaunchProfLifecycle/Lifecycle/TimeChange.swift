import LaunchProf

/// A step of the wall clock, relative to the monotonic clock.
public struct TimeChange: Sendable, Equatable, CustomStringConvertible {
    /// When the step was noticed (`CLOCK_MONOTONIC`, nanoseconds).
    public var nanoseconds: UInt64
    /// How far the wall clock moved beyond the time that passed (negative:
    /// set back).
    public var offsetNanoseconds: Int64

    public var description: String {
        let microseconds = offsetNanoseconds / 1_000
        return "wall clock moved by \(microseconds >= 0 ? "+" : "")\(microseconds) µs"
    }
}
