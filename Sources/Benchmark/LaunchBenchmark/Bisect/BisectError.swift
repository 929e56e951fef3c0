import LaunchEngine

/// What stops a bisect before it has an answer, naming the input at fault.
public struct BisectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What `launchprof bisect` exits with: 2 bad usage (a revision, the
    /// range, the settings), 3 the good or bad revision failed to build.
    public var status: LaunchExitStatus
    /// The message, naming what is wrong.
    public var message: String

    /// An error with `status`.
    public init(status: LaunchExitStatus, message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }
}
