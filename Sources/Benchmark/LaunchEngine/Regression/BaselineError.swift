import Foundation
import LaunchProfFiles
import LaunchSupport

/// Why a baseline could not be saved or read.
package enum BaselineError: Error, Equatable, CustomStringConvertible {
    /// The name is not a valid baseline name (letters, digits, `.`, `_`, `-`).
    case badName(String)
    /// No baseline of that name; `saved` lists those there are.
    case notFound(name: String, path: String, saved: [String])
    /// The baseline file is not a results document launchprof can read.
    case unreadable(ResultsFileError)
    /// The baseline could not be saved.
    case write(path: String, reason: String)

    package var description: String {
        switch self {
        case .badName(let name):
            "baseline name '\(name)' must be letters, digits, '.', '_' or '-' and not start with '.'"
        case let .notFound(name, path, saved):
            "no baseline '\(name)' (\(path) does not exist); "
                + (saved.isEmpty ? "save one with --save-baseline \(name)" : "saved baselines: \(saved.joined(separator: ", "))")
        case .unreadable(let error): "baseline: \(error)"
        case let .write(path, reason): "cannot save baseline '\(path)': \(reason)"
        }
    }
}
