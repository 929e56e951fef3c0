import Foundation
import LaunchSupport

/// Text that is not a share strictly between 0 and 1.
package struct FractionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    package var text: String

    package var description: String {
        "must be a percentage or fraction between 0 and 1 (e.g. 5% or 0.05), got '\(text)'"
    }
}
