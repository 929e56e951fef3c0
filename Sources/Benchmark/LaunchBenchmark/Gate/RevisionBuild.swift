/// A revision checked out in a worktree of its own and built there.
public struct RevisionBuild: Sendable, Equatable {
    /// The revision as the user named it.
    public var revision: String
    /// The commit it names.
    public var commit: String
    /// The worktree, built.
    public var directory: String
    /// Whether an earlier gate's build was reused.
    public var reused: Bool

    /// A built revision.
    public init(revision: String, commit: String, directory: String, reused: Bool) {
        self.revision = revision
        self.commit = commit
        self.directory = directory
        self.reused = reused
    }

    /// `program` as it is found in this build: a relative path with a '/'
    /// (`.build/release/app`) is taken inside the worktree; a bare name is
    /// looked up in PATH, an absolute path is used as it is.
    public func program(_ program: String) -> String {
        guard !program.hasPrefix("/"), program.contains("/") else { return program }
        return directory + "/" + program
    }
}
