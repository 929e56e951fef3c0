import LaunchEngine

/// Why a revision could not be checked out or built, naming it.
public enum RevisionBuildError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory is not inside a git repository (git's own words).
    case notARepository(directory: String, message: String)
    /// git does not know the revision.
    case unknownRevision(String, message: String)
    /// `git worktree add` (or another git step) failed.
    case git(step: String, message: String)
    /// The build command failed in the revision's worktree: its exit, its
    /// log's path and its last lines.
    case buildFailed(revision: String, commit: String, status: String, log: String, lastLines: [String])
    /// SIGINT (or a cancelled task) stopped the build; the worktree was removed.
    case interrupted(revision: String)
    /// A file or directory of the cache could not be made or written.
    case cache(path: String, message: String)

    public var description: String {
        switch self {
        case .notARepository(let directory, let message):
            "'\(directory)' is not in a git repository (\(message)): --base REV needs one; use --base-command for two programs"
        case .unknownRevision(let revision, let message):
            "--base/--head '\(revision)' is not a commit git knows (\(message)); fetch it or name a branch, tag or commit"
        case .git(let step, let message): "git \(step) failed: \(message)"
        case .buildFailed(let revision, let commit, let status, let log, let lines):
            "the build of '\(revision)' (\(commit.prefix(12))) failed: \(status); its log is \(log); its last lines:\n"
                + lines.map { "    \($0)" }.joined(separator: "\n")
        case .interrupted(let revision): "interrupted while building '\(revision)'; its worktree was removed"
        case .cache(let path, let message): "the build cache '\(path)': \(message)"
        }
    }

    /// What `launchprof gate` exits with: 2 for a revision or repository
    /// that cannot be used, 3 for a build (or checkout) that failed, 130
    /// when interrupted.
    public var status: LaunchExitStatus {
        switch self {
        case .notARepository, .unknownRevision: .usage
        case .git, .buildFailed, .cache: .launchFailed
        case .interrupted: .interrupted
        }
    }
}
