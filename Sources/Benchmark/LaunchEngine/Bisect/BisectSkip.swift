/// A commit a bisect could not measure, and why (as `git bisect skip`).
package struct BisectSkip: Sendable, Equatable, Codable {
    /// The commit.
    package var commit: BisectCommit
    /// Its failed build (status and log) or failed launch.
    package var reason: String

    /// A skipped commit.
    package init(commit: BisectCommit, reason: String) {
        self.commit = commit
        self.reason = reason
    }
}
