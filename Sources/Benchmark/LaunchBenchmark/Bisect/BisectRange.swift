import LaunchEngine

/// The commits a bisect searches: the first-parent chain from the bad
/// revision back to the good one, kept to the descendants of good (`git log
/// --first-parent good..bad` within `git rev-list --ancestry-path
/// good..bad`), oldest first, each with its subject and date.
struct BisectRange: Sendable {
    /// The good revision's commit.
    var good: BisectCommit
    /// The bad revision's commit (the last of `commits`).
    var bad: BisectCommit
    /// The range, oldest first; the last is the bad revision.
    var commits: [BisectCommit]

    /// The most commits a bisect takes: 17 steps; more is almost surely the
    /// wrong pair of revisions.
    static let most = 100_000

    init(repository: String, good goodRevision: String, bad badRevision: String, builds: RevisionBuilds) throws(BisectError) {
        let goodHash: String
        let badHash: String
        do {
            goodHash = try builds.commit(of: goodRevision)
            badHash = try builds.commit(of: badRevision)
        } catch {
            throw BisectError(status: .usage, message: Self.revisionMessage(error, good: goodRevision, bad: badRevision))
        }
        guard goodHash != badHash else {
            throw BisectError(
                status: .usage, message: "--good '\(goodRevision)' and --bad '\(badRevision)' are the same commit (\(goodHash.prefix(12)))")
        }
        let ancestor = try Self.git(["merge-base", "--is-ancestor", goodHash, badHash], in: repository, spawner: builds.spawner)
        guard ancestor.status == 0 else {
            throw BisectError(
                status: .usage,
                message: ancestor.status == 1
                    ? "--good '\(goodRevision)' (\(goodHash.prefix(12))) is not an ancestor of --bad '\(badRevision)' (\(badHash.prefix(12))): "
                        + "bisect searches the history from good to bad; swap them, or name a good revision the bad one descends from"
                    : "git merge-base --is-ancestor failed: \(ancestor.errorSummary)")
        }
        let format = "--format=%H%x1f%s%x1f%cI"
        // The first-parent chain, kept to the commits that descend from
        // good: when good came in by a merge, the chain starts at that merge
        // (git 2.39's log lists nothing for both flags at once then).
        let listed = try Self.git(
            ["log", "--first-parent", "--reverse", format, "\(goodHash)..\(badHash)"], in: repository, spawner: builds.spawner)
        let descendants = try Self.git(["rev-list", "--ancestry-path", "\(goodHash)..\(badHash)"], in: repository, spawner: builds.spawner)
        guard listed.status == 0, descendants.status == 0 else {
            throw BisectError(
                status: .usage,
                message: "git log \(goodHash.prefix(12))..\(badHash.prefix(12)) failed: \(listed.errorSummary)\(descendants.errorSummary)")
        }
        let descending = Set(descendants.lines)
        commits = listed.lines.compactMap(Self.commit).filter { descending.contains($0.hash) }
        guard let last = commits.last, last.hash == badHash else {
            throw BisectError(
                status: .usage,
                message: "git listed no first-parent path from '\(goodRevision)' to '\(badRevision)' (\(commits.count) commits listed)")
        }
        guard commits.count <= Self.most else {
            throw BisectError(
                status: .usage, message: "\(commits.count) commits from '\(goodRevision)' to '\(badRevision)': more than \(Self.most)")
        }
        bad = last
        let shown = try Self.git(["log", "-1", format, goodHash], in: repository, spawner: builds.spawner)
        good = shown.lines.first.flatMap(Self.commit) ?? BisectCommit(hash: goodHash, subject: "", date: "")
    }

    /// A `%H%x1f%s%x1f%cI` line as a commit.
    static func commit(_ line: String) -> BisectCommit? {
        let fields = line.split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3, fields[0].count >= 40 else { return nil }
        return BisectCommit(hash: fields[0], subject: fields[1], date: fields[2])
    }

    static func git(_ arguments: [String], in repository: String, spawner: Spawner) throws(BisectError) -> RevisionBuilds.GitResult {
        do {
            return try RevisionBuilds.git(arguments, in: repository, spawner: spawner)
        } catch {
            throw BisectError(status: .usage, message: error.description)
        }
    }

    private static func revisionMessage(_ error: RevisionBuildError, good: String, bad: String) -> String {
        guard case .unknownRevision(let revision, let message) = error else { return error.description }
        let flag = revision == good ? "--good" : "--bad"
        return "\(flag) '\(revision)' is not a commit git knows (\(message)); fetch it or name a branch, tag or commit"
    }
}
