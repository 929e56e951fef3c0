import Foundation
import LaunchEngine
import LaunchReports
import LaunchSupport

/// A bisect from a good and a bad revision to the first slow commit:
/// each step a gate (`GateSession`) of a commit's build against the good
/// revision's build, the search `BisectSearch`'s, the builds
/// `RevisionBuilds`' (docs/bisect.md).
///
/// The user's HEAD, working tree, index and branches are never touched:
/// every commit is built in a worktree of the build cache. The worktrees
/// this bisect adds are removed when it ends (interrupted too), unless
/// `keepBuilds`; builds already in the cache are left as they were.
package struct BisectSession: Sendable {
    /// A directory in the repository.
    package var directory: String
    /// The revision known to be fast.
    package var good: String
    /// The revision known to be slow.
    package var bad: String
    /// The build command, run with `/bin/sh -c` in each commit's worktree.
    package var buildCommand: String
    /// The program and its arguments; a relative program with a '/' is
    /// taken inside each build.
    package var command: [String]
    /// Variables set for every launch.
    package var environment: [String: String] = [:]
    /// When a launch counts as done.
    package var ready: ReadyProbe = .exit
    /// `--activate`: each build's program started on demand on a socket
    /// launchprof holds, ready at its first response.
    package var activation: SocketActivation?
    /// Every gate's settings (threshold, budget, mode…).
    package var settings = GateSettings()
    /// How many times the budget an inconclusive gate is measured again with.
    package var longerFactor = 2
    /// The build cache (nil: the git directory's launchprof/builds).
    package var cacheDirectory: String?
    /// Keep the worktrees this bisect built (for a later gate or bisect).
    package var keepBuilds = false
    /// Whether to measure the first slow commit against its parent when
    /// the search did not (the effect of that commit alone).
    package var measuresEffect = true

    /// A bisect of `good..bad` in the repository `directory` is in.
    package init(directory: String, good: String, bad: String, buildCommand: String, command: [String]) {
        self.directory = directory
        self.good = good
        self.bad = bad
        self.buildCommand = buildCommand
        self.command = command
    }

    /// Runs the bisect on the calling thread. `interrupt` stops it (the
    /// build or gate under way is stopped, the document says "interrupted");
    /// `note` hears each step. Throws only for what stops it before an
    /// answer can be looked for: bad usage, the good or bad build failing.
    package func runSynchronously(
        interrupt: InterruptMonitor, note: @escaping (String) -> Void = { _ in }
    ) throws(BisectError) -> BisectDocument {
        let started = ContinuousClock.now
        guard !command.isEmpty else { throw BisectError(status: .usage, message: "give the program to run after '--'") }
        var builds: RevisionBuilds
        do {
            builds = try RevisionBuilds(in: directory, buildCommand: buildCommand, cacheDirectory: cacheDirectory)
        } catch {
            throw BisectError(status: error.status, message: error.description)
        }
        builds.interrupt = interrupt
        let range = try BisectRange(repository: builds.repository, good: good, bad: bad, builds: builds)
        var run = BisectRun(session: self, builds: builds, range: range, interrupt: interrupt, note: note)
        defer { run.cleanUp() }
        note(
            "bisecting \(range.commits.count) commit\(range.commits.count == 1 ? "" : "s") from \(range.good.line) to \(range.bad.line), "
                + "at most \(BisectSearch(count: range.commits.count).stepsLeft + 1) gates to the answer when none is skipped or inconclusive"
        )
        try run.prepare()
        var search = BisectSearch(count: range.commits.count)
        var conclusion: BisectConclusion?
        do {
            conclusion = try search.run { (question) throws(BisectRun.Stop) -> BisectAnswer in
                try run.answer(question)
            }
        } catch {
            switch error {
            case .interrupted: conclusion = nil
            case .usage(let message): throw BisectError(status: .usage, message: message)
            }
        }
        if case .found(let index)? = conclusion, measuresEffect {
            do {
                try run.measureEffect(of: index, lastGood: search.lastGood)
            } catch {
                // Interrupted (the summary then names the range left, one
                // commit), or bad settings, which the search's gates would
                // have met first.
                conclusion = nil
            }
        }
        if case .found(let index)? = conclusion { run.explainEffect(of: index) }
        return run.document(conclusion: conclusion, search: search, elapsed: (ContinuousClock.now - started).seconds)
    }
}

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
