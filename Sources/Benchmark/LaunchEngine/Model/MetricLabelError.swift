import Foundation

/// A `--label` (or config `labels:` entry) that cannot be used.
package enum MetricLabelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not `NAME=VALUE`.
    case notAPair(String)
    /// The name is not a Prometheus label name.
    case badName(String, String)
    /// The name is one launchprof sets itself.
    case reserved(String, String)

    package var description: String {
        switch self {
        case .notAPair(let text): "--label '\(text)' is not NAME=VALUE"
        case let .badName(text, name):
            "--label '\(text)': '\(name)' is not a Prometheus label name (letters, digits and _, not starting with a digit or __)"
        case let .reserved(text, name): "--label '\(text)': launchprof sets '\(name)' itself"
        }
    }
}
