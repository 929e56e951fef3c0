import Foundation
import Glibc
import LaunchEngine
import LaunchProfFiles
import LaunchSupport

/// Revisions of a git repository, each checked out in a worktree of its own
/// and built there with one shell command; the builds are cached by commit
/// and command, so a second gate (or a bisect) reuses them.
///
/// The user's working tree, index, HEAD and branches are never touched:
/// `git worktree add --detach` makes a new worktree at the commit, and the
/// cache lives in the repository's git directory
/// (`$(git rev-parse --git-common-dir)/launchprof/builds`), where `git
/// status` does not see it. A worktree is `<commit>-<FNV-1a of the
/// command>`; the marker `<same>.built` beside it is written only after a
/// successful build, so a worktree without one is half-made (a build that
/// failed or was interrupted) and is removed, never reused. An flock on
/// `<same>.lock` (`BuildLock`) makes concurrent gates on the same commit
/// and command take turns.
public struct RevisionBuilds: Sendable {
    /// The repository's top directory.
    public var repository: String
    /// Where the worktrees, markers and build logs are.
    public var cacheDirectory: String
    /// The build command, run with `/bin/sh -c` in each worktree.
    public var buildCommand: String
    /// A build still running after this is killed (and failed).
    public var buildTimeout: Duration = .seconds(3600)
    /// Stops a build when it fires (the worktree is then removed).
    package var interrupt: InterruptMonitor?
    /// Runs git and the builds; the command's gates measure through it too
    /// (one spawner per command).
    package let spawner: Spawner

    /// The builds of the repository `directory` is in, with `buildCommand`;
    /// `cacheDirectory` nil: the repository's git directory's `launchprof/builds`.
    public init(
        in directory: String, buildCommand: String, cacheDirectory: String? = nil
    ) throws(RevisionBuildError) {
        let spawner = Spawner()
        self.spawner = spawner
        let top = try Self.git(["rev-parse", "--show-toplevel"], in: directory, spawner: spawner)
        guard top.status == 0, let repository = top.lines.first else {
            throw .notARepository(directory: directory, message: top.errorSummary)
        }
        self.repository = repository
        self.buildCommand = buildCommand
        if let cacheDirectory {
            self.cacheDirectory = cacheDirectory
        } else {
            let common = try Self.git(
                ["rev-parse", "--path-format=absolute", "--git-common-dir"], in: repository, spawner: spawner)
            guard common.status == 0, let gitDirectory = common.lines.first else {
                throw .git(step: "rev-parse --git-common-dir", message: common.errorSummary)
            }
            self.cacheDirectory = gitDirectory + "/launchprof/builds"
        }
    }

    /// The commit `revision` names.
    public func commit(of revision: String) throws(RevisionBuildError) -> String {
        let parsed = try Self.git(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"], in: repository, spawner: spawner)
        guard parsed.status == 0, let commit = parsed.lines.first, commit.count >= 40 else {
            throw .unknownRevision(revision, message: parsed.errorSummary.isEmpty ? "no such commit" : parsed.errorSummary)
        }
        return commit
    }

    /// The worktree's name for `commit`: the commit and a hash of the command.
    public func key(of commit: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in buildCommand.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3  // FNV-1a 64's prime; wrapping is the algorithm
        }
        return commit + "-" + String(hash, radix: 16)
    }

    /// `revision` checked out and built, or the cached build of its commit
    /// with this command. `note` hears what is being done.
    public func build(_ revision: String, note: (String) -> Void = { _ in }) throws(RevisionBuildError) -> RevisionBuild {
        let commit = try commit(of: revision)
        let key = key(of: commit)
        let directory = cacheDirectory + "/" + key
        let marker = directory + ".built"
        let log = directory + ".log"
        do {
            try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        } catch {
            throw .cache(path: cacheDirectory, message: error.localizedDescription)
        }
        // Held to the end of this build: another gate on the same commit and
        // command waits, then finds the marker and reuses the build.
        let lock = try BuildLock(path: directory + ".lock", interrupt: interrupt, revision: revision) {
            note("waiting for another launchprof building \(revision) (\(commit.prefix(12))) in \(directory)")
        }
        defer { withExtendedLifetime(lock) {} }
        if access(marker, F_OK) == 0, access(directory, F_OK) == 0 {
            return RevisionBuild(revision: revision, commit: commit, directory: directory, reused: true)
        }
        // Whatever is there without a marker is half-made: start again.
        unlink(marker)
        removeWorktree(directory)
        note("checking out \(revision) (\(commit.prefix(12))) in \(directory)")
        let added = try Self.git(["worktree", "add", "--detach", "--quiet", directory, commit], in: repository, spawner: spawner)
        guard added.status == 0 else {
            removeWorktree(directory)
            throw .git(step: "worktree add \(directory)", message: added.errorSummary)
        }
        note("building \(revision): \(buildCommand)")
        let built: ToolProcess
        do {
            built = try ToolProcess.run(
                "/bin/sh", arguments: ["-c", buildCommand], input: Data(), timeout: buildTimeout, workingDirectory: directory,
                interrupt: interrupt, spawner: spawner)
        } catch {
            removeWorktree(directory)
            throw .buildFailed(revision: revision, commit: commit, status: "\(error)", log: log, lastLines: [])
        }
        let text = String(decoding: built.output + built.errorOutput, as: UTF8.self)
        try? AtomicFile.write(text, to: log)
        if built.interrupted || interrupt?.isInterrupted == true {
            removeWorktree(directory)
            throw .interrupted(revision: revision)
        }
        guard built.end == .exited(0) else {
            removeWorktree(directory)
            let status =
                switch built.end {
                case .exited(let code): "exited with status \(code)"
                case .signaled(let signal): "killed by signal \(signal)"
                case .timedOut: "still running after \(Int(buildTimeout.seconds)) s"
                }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true).suffix(10).map(String.init)
            throw .buildFailed(revision: revision, commit: commit, status: status, log: log, lastLines: lines)
        }
        do {
            try AtomicFile.write("\(commit)\n\(buildCommand)\n", to: marker)
        } catch {
            removeWorktree(directory)
            throw .cache(path: marker, message: "\(error)")
        }
        return RevisionBuild(revision: revision, commit: commit, directory: directory, reused: false)
    }

    /// Removes a worktree, registered or not, and git's record of it.
    public func removeWorktree(_ directory: String) {
        if access(directory, F_OK) == 0 {
            _ = try? Self.git(["worktree", "remove", "--force", "--force", directory], in: repository, spawner: spawner)
            try? FileManager.default.removeItem(atPath: directory)
        }
        _ = try? Self.git(["worktree", "prune"], in: repository, spawner: spawner)
    }

    /// What a git command printed and how it ended.
    struct GitResult {
        var status: Int32
        var lines: [String]
        var errorSummary: String
    }

    static func git(_ arguments: [String], in directory: String, spawner: Spawner) throws(RevisionBuildError) -> GitResult {
        let run: ToolProcess
        do {
            run = try ToolProcess.run(
                "git", arguments: ["-C", directory] + arguments, input: Data(), timeout: .seconds(300), spawner: spawner)
        } catch {
            throw .git(step: arguments.first ?? "", message: "\(error)")
        }
        let status: Int32 = if case .exited(let code) = run.end { code } else { -1 }
        let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
        let errors = String(decoding: run.errorOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        return GitResult(status: status, lines: lines, errorSummary: errors.suffix(3).joined(separator: "; "))
    }
}
