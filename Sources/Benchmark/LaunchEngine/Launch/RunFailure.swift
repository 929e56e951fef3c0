/// A run that failed: which target, mode and run, and why.
public struct RunFailure: Sendable, Equatable, CustomStringConvertible, Error {
    /// The target whose run failed.
    public var target: String
    /// The mode of the run.
    public var mode: LaunchMode
    /// "run 3" or "warm-up 1".
    public var run: String
    /// What went wrong: a crash, a timeout, a non-zero exit status.
    public var reason: String

    /// A failure of run `run` of `target` in `mode`.
    public init(target: String, mode: LaunchMode, run: String, reason: String) {
        self.target = target
        self.mode = mode
        self.run = run
        self.reason = reason
    }

    public var description: String { "target '\(target)' (\(mode.rawValue)), \(run): \(reason)" }
}
