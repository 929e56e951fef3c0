import LaunchEngine
import LaunchReports
import LaunchSupport

/// A results file that could not be written (exit status 2).
public struct ResultsWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file that could not be written.
    public var path: String
    /// Why, as the exporter or the file system said.
    public var reason: String

    /// An error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { reason.contains(path) ? reason : "\(path): \(reason)" }
}
