import Foundation
import LaunchEngine

/// Why a fleet report cannot be made from the paths given.
package enum FleetHistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A path that does not exist.
    case missing(String)
    /// A file named on its own that is not a readable results file.
    case unreadable(ResultsFileError)
    /// A directory with no results file in it.
    case noResults(String, skipped: Int)

    package var description: String {
        switch self {
        case .missing(let path): "'\(path)' does not exist"
        case .unreadable(let error): error.description
        case let .noResults(path, skipped):
            "'\(path)' holds no launchprof results files"
                + (skipped > 0 ? " (\(skipped) other JSON file\(skipped == 1 ? "" : "s") skipped)" : " (no .json files)")
        }
    }
}
