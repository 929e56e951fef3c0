import Foundation
import LaunchSupport

/// Why a quantity could not be read.
public enum QuantityError: Error, Equatable, CustomStringConvertible {
    /// The text is not a number with a unit.
    case notANumber(String)
    /// The number is negative.
    case negative(String)
    /// The number is too large to hold.
    case tooLarge(String)
    /// The unit is not one launchprof knows.
    case unknownUnit(String, unit: String)

    public var description: String {
        switch self {
        case .notANumber(let text): "'\(text)' is not a number with a unit (e.g. 40ms, 1.5s, 30MiB, 12)"
        case .negative(let text): "'\(text)' is negative"
        case .tooLarge(let text): "'\(text)' is too large (at most 2^62 ns, bytes or a count)"
        case let .unknownUnit(text, unit):
            "'\(text)' has unknown unit '\(unit)' (times: ns, us, ms, s; sizes: B, kB, MB, GB, KiB, MiB, GiB)"
        }
    }
}
