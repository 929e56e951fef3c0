import Foundation

/// Numbers as people read them: durations in ns/µs/ms/s and sizes in
/// B/KiB/MiB/GiB, the unit chosen automatically, three significant digits.
package enum HumanUnits {
    /// A unit of time and its size in nanoseconds.
    package struct TimeUnit: Sendable, Equatable {
        /// The unit's symbol, as reports print it.
        package var symbol: String
        /// Nanoseconds in one of the unit.
        package var nanoseconds: Double

        /// Nanoseconds.
        package static let ns = TimeUnit(symbol: "ns", nanoseconds: 1)
        /// Microseconds.
        package static let µs = TimeUnit(symbol: "µs", nanoseconds: 1e3)
        /// Milliseconds.
        package static let ms = TimeUnit(symbol: "ms", nanoseconds: 1e6)
        /// Seconds.
        package static let s = TimeUnit(symbol: "s", nanoseconds: 1e9)
        static let all: [TimeUnit] = [.ns, .µs, .ms, .s]
    }

    /// "999 ns", "14.2 ms", "1.23 s".
    package static func duration(_ nanoseconds: Double) -> String {
        duration(nanoseconds, in: timeUnit(for: nanoseconds))
    }

    /// The unit `duration(_:)` would choose for this value.
    package static func timeUnit(for nanoseconds: Double) -> TimeUnit {
        // Choose by the rounded value, so 999.7 µs becomes 1.00 ms, not 1000 µs.
        for unit in TimeUnit.all.dropLast() where abs(rounded(nanoseconds / unit.nanoseconds)) < 1000 {
            return unit
        }
        return .s
    }

    /// `nanoseconds` in a given unit, three significant digits: for a spread
    /// printed in the unit of its median ("14.2 ms ± 0.310 ms").
    package static func duration(_ nanoseconds: Double, in unit: TimeUnit) -> String {
        "\(significant(nanoseconds / unit.nanoseconds)) \(unit.symbol)"
    }

    /// "512 B", "1.50 KiB", "12.3 MiB", "1.95 GiB".
    package static func bytes(_ value: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var scaled = value
        var index = 0
        while index < units.count - 1, abs(rounded(scaled)) >= 1024 {
            scaled /= 1024
            index += 1
        }
        return index == 0 ? "\(Int(scaled.rounded())) B" : "\(significant(scaled)) \(units[index])"
    }

    /// A count: whole numbers as such, a median between two counts with one decimal.
    package static func count(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : fixed(value, decimals: 1)
    }

    /// 0.634 -> "63%", 0.004 -> "0.4%".
    package static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        return value != 0 && abs(value) < 1 ? "\(fixed(value, decimals: 1))%" : "\(fixed(value, decimals: 0))%"
    }

    /// A confidence level or an interval's coverage, in percent: one decimal,
    /// and more where one would round a level short of 100% up to it (a
    /// gate's late looks spend little error): 0.99 -> "99.0", 0.99962 ->
    /// "99.96", never "100.0" for less than 1.
    package static func level(_ fraction: Double) -> String {
        let value = fraction * 100
        guard value < 100, value.isFinite else { return fixed(value, decimals: 1) }
        for decimals in 1...6 where !fixed(value, decimals: decimals).hasPrefix("100") {
            return fixed(value, decimals: decimals)
        }
        return fixed((value * 1e6).rounded(.down) / 1e6, decimals: 6)
    }

    /// `value` with exactly `decimals` digits after the point.
    package static func fixed(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(max(0, decimals))f", value)
    }

    /// Three significant digits, never in exponent notation: 14.2, 1.23, 123, 1234.
    package static func significant(_ value: Double) -> String {
        fixed(value, decimals: decimalsForThreeDigits(value))
    }

    private static func decimalsForThreeDigits(_ value: Double) -> Int {
        guard value != 0, value.isFinite else { return 0 }
        let magnitude = Int(log10(abs(value)).rounded(.down))
        // At most 9 decimals: below a nanosecond of a second, or 1e-300 in
        // a hand-edited file, three digits would be hundreds of zeros.
        var decimals = min(9, max(0, 2 - magnitude))
        // 9.996 has magnitude 0 but rounds to 10.00: one decimal fewer.
        if abs((value * pow(10, Double(decimals))).rounded()) >= 1000 { decimals = max(0, decimals - 1) }
        return decimals
    }

    /// The value rounded to three significant digits, as it would print.
    private static func rounded(_ value: Double) -> Double {
        let decimals = decimalsForThreeDigits(value)
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }
}
