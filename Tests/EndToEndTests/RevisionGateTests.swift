import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Synchronization
import Testing

/// `launchprof gate --base REV --build …` in a real git repository made
/// here: two commits of a C program, the second with more CPU work.
@Suite("launchprof gate, two revisions", .serialized)
struct RevisionGateTests {
    /// Runs git in `directory`, requiring success; returns its output.
    @discardableResult
    static func git(_ arguments: [String], in directory: String) throws -> String {
        let run = try CommandRun.run(
            "/usr/bin/git", ["-C", directory] + arguments,
            environment: [
                "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": directory,
            ])
        try #require(run.status == 0, "git \(arguments): \(run.standardError)")
        return run.standardOutput
    }

    /// A repository whose first commit spins `rounds` and whose second
    /// spins `3 × rounds`, with a dirty working tree on top.
    static func repository(in scratch: ScratchDirectory, rounds: Int) throws -> String {
        let repository = scratch.file("repo")
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try git(["init", "--quiet", "--initial-branch=main"], in: repository)
        func commit(_ rounds: Int, _ message: String) throws {
            let source = spinProgram.replacingOccurrences(of: "long rounds = text ? atol(text) : 0;", with: "long rounds = \(rounds);")
            try source.write(toFile: repository + "/app.c", atomically: true, encoding: .utf8)
            try git(["add", "app.c"], in: repository)
            try git(["commit", "--quiet", "-m", message], in: repository)
        }
        try commit(rounds, "base")
        try commit(rounds * 3, "slower")
        // Dirty: a tracked file changed and an untracked one.
        try "/* uncommitted */\n".write(toFile: repository + "/app.c", atomically: true, encoding: .utf8)
        try "scratch\n".write(toFile: repository + "/notes.txt", atomically: true, encoding: .utf8)
        return repository
    }

    static let build = "mkdir -p out && cc -O1 -o out/app app.c"

    @Test("the slower revision is regressed; the dirty tree, HEAD and branches are untouched; a second gate reuses the builds")
    func regressedAndReused() throws {
        let scratch = try ScratchDirectory()
        let repository = try Self.repository(in: scratch, rounds: 1_000_000)
        let status = try Self.git(["status", "--porcelain"], in: repository)
        let head = try Self.git(["rev-parse", "HEAD"], in: repository)
        let branches = try Self.git(["branch", "--list"], in: repository)
        let arguments = ["gate", "--base", "HEAD~1", "--build", Self.build, "--threshold", "5", "--max-time", "120", "--", "out/app"]

        let first = try launchprof(arguments, in: repository)
        #expect(first.status == 1, "\(first.standardOutput)\(first.standardError)")
        #expect(first.standardOutput.hasPrefix("regressed"), "\(first.standardOutput)")
        #expect(first.standardError.contains("building HEAD~1"))
        #expect(try Self.git(["status", "--porcelain"], in: repository) == status)
        #expect(try Self.git(["rev-parse", "HEAD"], in: repository) == head)
        #expect(try Self.git(["branch", "--list"], in: repository) == branches)
        #expect(try String(contentsOfFile: repository + "/app.c", encoding: .utf8) == "/* uncommitted */\n")

        let second = try launchprof(arguments, in: repository)
        #expect(second.status == 1, "\(second.standardOutput)\(second.standardError)")
        #expect(!second.standardError.contains("building"))
        #expect(second.standardError.contains("base HEAD~1"))
        #expect(second.standardError.contains("reusing the build"))
        // Three worktrees: the user's and one per built commit.
        let worktrees = try Self.git(["worktree", "list", "--porcelain"], in: repository)
        #expect(worktrees.components(separatedBy: "worktree ").count - 1 == 3)
    }

    @Test("a failing build is named with its log's last lines, exits 3, and leaves no worktree behind")
    func failingBuild() throws {
        let scratch = try ScratchDirectory()
        let repository = try Self.repository(in: scratch, rounds: 1000)
        let run = try launchprof(
            ["gate", "--base", "HEAD~1", "--build", "echo compiling-marker; echo broken-marker >&2; exit 7", "--", "out/app"],
            in: repository)
        #expect(run.status == 3, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardError.contains("the build of 'HEAD~1'"))
        #expect(run.standardError.contains("exited with status 7"))
        #expect(run.standardError.contains("broken-marker"))
        let worktrees = try Self.git(["worktree", "list", "--porcelain"], in: repository)
        #expect(worktrees.components(separatedBy: "worktree ").count - 1 == 1, "\(worktrees)")
        let cache = repository + "/.git/launchprof/builds"
        let left = try FileManager.default.contentsOfDirectory(atPath: cache)
        // The build log stays, and the empty lock file (unlinking a lock
        // file would let a waiting gate lock a file no one else sees).
        #expect(left.allSatisfy { $0.hasSuffix(".log") || $0.hasSuffix(".lock") }, "\(left)")
    }

    @Test("--affinity pins every run of a gate of revisions, though git and the builds started the spawner unpinned")
    func pinnedRevisions() throws {
        let scratch = try ScratchDirectory()
        let repository = try Self.repository(in: scratch, rounds: 1000)
        let cpu = try #require(try CPUAffinity.current().cpus.first)
        // The program fails unless the kernel lets it run on `cpu` alone
        // (before, the runs inherited the spawner's CPUs, and a gate of
        // revisions started its spawner for git, unpinned).
        let check = "grep -q '^Cpus_allowed_list:[[:space:]]*\(cpu)$' /proc/self/status"
        let build = "mkdir -p out && printf '#!/bin/sh\\n%s\\n' \"\(check)\" > out/app && chmod +x out/app"
        let run = try launchprof(
            [
                "gate", "--base", "HEAD~1", "--build", build, "--affinity", "\(cpu)", "--threshold", "10", "--max-time", "3", "--",
                "out/app",
            ],
            in: repository)
        #expect([0, 4].contains(run.status), "\(run.standardOutput)\(run.standardError)")
        #expect(!run.standardOutput.contains("exited with status"), "\(run.standardOutput)")
        // Every pair on that CPU, and no run left without a partner.
        let line = run.standardOutput.split(separator: "\n").first { $0.contains("pairs by CPU:") }.map(String.init) ?? ""
        #expect(line.contains("pairs by CPU: cpu \(cpu): "), "\(run.standardOutput)")
        #expect(!line.contains(", cpu "), "\(run.standardOutput)")
        #expect(line.hasSuffix("; 0 runs unpaired"), "\(run.standardOutput)")
    }

    @Test("a revision git does not know is bad usage (2)")
    func unknownRevision() throws {
        let scratch = try ScratchDirectory()
        let repository = try Self.repository(in: scratch, rounds: 1000)
        let run = try launchprof(["gate", "--base", "no-such-branch", "--build", Self.build, "--", "out/app"], in: repository)
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains("'no-such-branch' is not a commit git knows"))
    }

    @Test("two builds of the same revision at once take turns: built once, reused once, one worktree")
    func concurrentBuilds() throws {
        let scratch = try ScratchDirectory()
        let repository = try Self.repository(in: scratch, rounds: 1000)
        let counter = scratch.file("builds.txt")
        // Slow enough that the second arrives while the first is building.
        let command = "echo built >> '\(counter)'; sleep 1; " + Self.build
        let results = Mutex<[Result<RevisionBuild, RevisionBuildError>]>([])
        let group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                let result = Result { () throws(RevisionBuildError) -> RevisionBuild in
                    try RevisionBuilds(in: repository, buildCommand: command).build("HEAD~1")
                }
                results.withLock { $0.append(result) }
            }
        }
        group.wait()
        let builds = try results.withLock { try $0.map { try $0.get() } }
        #expect(builds.count == 2)
        #expect(builds.filter(\.reused).count == 1)
        #expect(Set(builds.map(\.directory)).count == 1)
        #expect(try String(contentsOfFile: counter, encoding: .utf8) == "built\n")
        #expect(access(builds[0].directory + "/out/app", X_OK) == 0)
        let worktrees = try Self.git(["worktree", "list", "--porcelain"], in: repository)
        #expect(worktrees.components(separatedBy: "worktree ").count - 1 == 2, "\(worktrees)")
    }
}
