import Foundation
import LaunchSupport

/// A value with its unit as config files and flags write it: `40ms`,
/// `1.5s`, `250us`, `30MiB`, `2GB`, `12` (a count), converted to the base
/// unit of ``Metric/Unit`` (nanoseconds, bytes, or a count).
public struct Quantity: Sendable, Equatable, CustomStringConvertible {
    /// The number, in `unit`.
    public var value: Double
    /// Its unit.
    public var unit: Metric.Unit

    /// A quantity of `value` `unit`s.
    public init(value: Double, unit: Metric.Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses `text`; a bare number is a count.
    public init(parsing text: String) throws(QuantityError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let numberEnd =
            trimmed.firstIndex { !($0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" || $0 == "E") }
            ?? trimmed.endIndex
        // "1e3ms" parses, but an 'e' starting a unit never appears among ours.
        let numberText = String(trimmed[..<numberEnd])
        let suffix = String(trimmed[numberEnd...]).trimmingCharacters(in: .whitespaces)
        guard let number = Double(numberText), number.isFinite else { throw .notANumber(text) }
        guard number >= 0 else { throw .negative(text) }
        if suffix.isEmpty {
            guard number <= Self.maximumValue else { throw .tooLarge(text) }
            self.init(value: number, unit: .count)
            return
        }
        guard let (unit, scale) = Self.units[suffix] else { throw .unknownUnit(text, unit: suffix) }
        // "1e300s" is finite but its nanoseconds are not; limits past 2^63
        // base units would also overflow every integer comparison after.
        guard number * scale <= Self.maximumValue else { throw .tooLarge(text) }
        self.init(value: number * scale, unit: unit)
    }

    /// The largest value in a base unit: 2^62 ns is 146 years, 2^62 bytes 4 EiB.
    static let maximumValue: Double = 0x1p62

    /// Units and their size in the base unit. Decimal prefixes (kB, MB, GB)
    /// are powers of 1000, binary ones (KiB, MiB, GiB) powers of 1024.
    static let units: [String: (Metric.Unit, Double)] = [
        "ns": (.nanoseconds, 1), "us": (.nanoseconds, 1e3), "µs": (.nanoseconds, 1e3),
        "ms": (.nanoseconds, 1e6), "s": (.nanoseconds, 1e9),
        "B": (.bytes, 1), "kB": (.bytes, 1e3), "KB": (.bytes, 1e3), "MB": (.bytes, 1e6), "GB": (.bytes, 1e9),
        "KiB": (.bytes, 1024), "MiB": (.bytes, 1_048_576), "GiB": (.bytes, 1_073_741_824),
        // Counts (instructions: 4.5M): decimal.
        "k": (.count, 1e3), "K": (.count, 1e3), "M": (.count, 1e6), "G": (.count, 1e9),
    ]

    public var description: String { HumanUnits.format(value, unit: unit) }
}
