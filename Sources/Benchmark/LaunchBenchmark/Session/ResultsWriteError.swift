import LaunchEngine
import LaunchReports
import LaunchSupport

/// Results outputs that could not be written (exit status 2), each named;
/// the others were written.
public struct ResultsWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every output that failed, in the order they are written.
    public var failures: [ResultsWriteFailure]

    /// An error of these failures.
    public init(_ failures: [ResultsWriteFailure]) {
        self.failures = failures
    }

    /// An error of one output at `path`.
    public init(output: String, path: String, reason: String) {
        self.init([ResultsWriteFailure(output: output, path: path, reason: reason)])
    }

    /// One line per failure.
    public var description: String { failures.map(\.description).joined(separator: "\n") }
}
