import LaunchProf

/// A stop the process did not see coming, measured after the fact.
///
/// The heartbeat only wakes every period, so the stop's start is known to
/// within one period: the length lies between the two bounds.
public struct UnobservedSuspension: Sendable, Equatable, CustomStringConvertible {
    /// When the process noticed (CLOCK_MONOTONIC ns).
    public var detectedNanoseconds: UInt64
    /// The stop lasted at least this long…
    public var minimumNanoseconds: UInt64
    /// …and at most this long.
    public var maximumNanoseconds: UInt64

    public var description: String {
        "\(Self.milliseconds(minimumNanoseconds))–\(Self.milliseconds(maximumNanoseconds)) ms"
    }

    static func milliseconds(_ ns: UInt64) -> String { String(ns / 1_000_000) }
}
