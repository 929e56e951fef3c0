import Foundation
import LaunchSupport

/// A share strictly between 0 and 1, written as `5%` or `0.05`: regression
/// thresholds and significance levels, from flags and config files alike.
package struct Fraction: Sendable, Hashable, CustomStringConvertible {
    /// The share, strictly between 0 and 1.
    package let value: Double

    /// `text` as a fraction, or an error saying what it must be.
    package init(parsing text: String) throws(FractionError) {
        let value = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
        guard let value, value > 0, value < 1 else { throw FractionError(text: text) }
        self.value = value
    }

    /// The value when `text` is a percentage or fraction strictly between 0
    /// and 1; nil otherwise.
    package static func parse(_ text: String) -> Double? { try? Fraction(parsing: text).value }

    package var description: String { HumanUnits.percent(value) }
}

/// Text that is not a share strictly between 0 and 1.
package struct FractionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    package var text: String

    package var description: String {
        "must be a percentage or fraction between 0 and 1 (e.g. 5% or 0.05), got '\(text)'"
    }
}
