/// A commit a bisect could not measure, and why (as `git bisect skip`).
public struct BisectSkip: Sendable, Equatable, Codable {
    /// The commit.
    public var commit: BisectCommit
    /// Its failed build (status and log) or failed launch.
    public var reason: String

    /// A skipped commit.
    public init(commit: BisectCommit, reason: String) {
        self.commit = commit
        self.reason = reason
    }
}
