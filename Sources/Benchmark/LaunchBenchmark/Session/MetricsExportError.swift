import LaunchEngine
import LaunchProfFiles
import LaunchReports
import LaunchSupport

/// Metric export flags or config that cannot be used.
package enum MetricsExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A gateway URL or job that cannot be used.
    case push(PushError)

    package var description: String {
        switch self {
        case .push(let error): error.description
        }
    }
}
