/// Exact decimal renderings of nanosecond differences, with integer
/// arithmetic only: a Double cannot hold CLOCK_MONOTONIC nanoseconds exactly
/// once a machine has been up for a few months.
enum ExportTimeFormat {
    /// `to - from` in microseconds with exactly 3 decimals ("1234.567", "-0.250").
    static func microseconds(from: UInt64, to: UInt64) -> String {
        decimal(from: from, to: to, unit: 1_000)
    }

    /// `to - from` in milliseconds with exactly 3 decimals (truncated to the µs).
    static func milliseconds(from: UInt64, to: UInt64) -> String {
        decimal(from: from / 1_000, to: to / 1_000, unit: 1_000)
    }

    /// A duration in milliseconds with 3 decimals.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        milliseconds(from: 0, to: nanoseconds)
    }

    private static func decimal(from: UInt64, to: UInt64, unit: UInt64) -> String {
        let negative = to < from
        let magnitude = negative ? from - to : to - from
        let fraction = String(magnitude % unit)
        let padded = String(repeating: "0", count: 3 - fraction.count) + fraction
        return (negative ? "-" : "") + "\(magnitude / unit).\(padded)"
    }
}
