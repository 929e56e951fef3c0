import LaunchEngine

/// What stops a bisect before it has an answer, naming the input at fault.
package struct BisectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What `launchprof bisect` exits with: 2 bad usage (a revision, the
    /// range, the settings), 3 the good or bad revision failed to build.
    package var status: LaunchExitStatus
    /// The message, naming what is wrong.
    package var message: String

    /// An error with `status`.
    package init(status: LaunchExitStatus, message: String) {
        self.status = status
        self.message = message
    }

    package var description: String { message }
}
