import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof bisect` in a real git repository made here: 24 commits of a
/// C program, one that does not build, one that spins three times as much
/// (at +60% the launch grew by only 19–26%, and under load a step at
/// `--threshold 15` could end inconclusive: the recipe's test then skipped it).
@Suite("launchprof bisect", .serialized)
struct BisectCommandTests {
    static let build = "mkdir -p out && cc -O1 -o out/app app.c"
    /// The commit (0 = the first, the good one) that does not compile.
    static let broken = 11
    /// The commit that makes the launch slower.
    static let slower = 17
    static let commits = 24

    /// The repository, its commits' hashes oldest first, and a dirty tree on top.
    static func repository(in scratch: ScratchDirectory) throws -> (String, [String]) {
        let repository = scratch.file("repo")
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try RevisionGateTests.git(["init", "--quiet", "--initial-branch=main"], in: repository)
        var hashes: [String] = []
        for index in 0..<commits {
            let rounds = index >= slower ? 6_000_000 : 2_000_000
            var source = spinProgram.replacingOccurrences(of: "long rounds = text ? atol(text) : 0;", with: "long rounds = \(rounds);")
            source += "\n/* version \(index) */\n"
            if index == broken { source += "this is not C;\n" }
            try source.write(toFile: repository + "/app.c", atomically: true, encoding: .utf8)
            try RevisionGateTests.git(["add", "app.c"], in: repository)
            let subject =
                index == slower ? "spin three times as much" : index == broken ? "a change that does not compile" : "version \(index)"
            try RevisionGateTests.git(["commit", "--quiet", "-m", subject], in: repository)
            hashes.append(try RevisionGateTests.git(["rev-parse", "HEAD"], in: repository).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try RevisionGateTests.git(["branch", "topic", hashes[5]], in: repository)
        try "/* uncommitted */\n".write(toFile: repository + "/app.c", atomically: true, encoding: .utf8)
        try "scratch\n".write(toFile: repository + "/notes.txt", atomically: true, encoding: .utf8)
        try RevisionGateTests.git(["add", "notes.txt"], in: repository)
        return (repository, hashes)
    }

    /// What must be the same before and after: HEAD, status, index, branches, worktrees, refs.
    static func state(of repository: String) throws -> [String] {
        try [
            ["rev-parse", "HEAD"], ["symbolic-ref", "HEAD"], ["status", "--porcelain", "--untracked-files=all"], ["diff", "--cached"],
            ["branch", "--list", "-v"], ["worktree", "list", "--porcelain"], ["for-each-ref"], ["stash", "list"],
        ].map { try RevisionGateTests.git($0, in: repository) } + [try String(contentsOfFile: repository + "/app.c", encoding: .utf8)]
    }

    @Test("names the first slow commit and the one that does not build, and leaves the repository exactly as it was")
    func findsTheCommit() throws {
        let scratch = try ScratchDirectory()
        let (repository, hashes) = try Self.repository(in: scratch)
        let before = try Self.state(of: repository)
        let json = scratch.file("bisect.json")
        let started = Date()
        let run = try launchprof(
            [
                "bisect", "--good", hashes[0], "--bad", "main", "--build", Self.build, "--threshold", "15", "--max-time", "20",
                "--max-runs", "400", "--export-json", json, "--", "out/app",
            ], in: repository)
        let took = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(
            run.standardOutput.hasPrefix("first slow commit: \(hashes[Self.slower].prefix(12)) spin three times as much"),
            "\(run.standardOutput)")
        #expect(
            run.standardOutput.contains("skipped (as git bisect skip):\n    \(hashes[Self.broken].prefix(12))"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("the build failed"))
        let document = try JSONDecoder().decode(BisectDocument.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(document.outcome == "found")
        #expect(document.firstSlow?.hash == hashes[Self.slower])
        #expect(document.skipped.map(\.commit.hash) == [hashes[Self.broken]])
        #expect(document.commits == Self.commits - 1)
        #expect(document.steps.first?.kind == "confirm" && document.steps.first?.verdict == .regressed)
        // The confirmation, ⌈log₂ 23⌉ = 5 halvings, one more for the skip and the effect.
        #expect((6...9).contains(document.steps.count), "\(document.steps.map(\.kind))")
        #expect(document.effectSource?.contains("against its parent \(hashes[Self.slower - 1].prefix(12))") == true)
        #expect((document.effect?.low ?? 0) > 0.15)
        // The Why of the answer: a C program reports to no tracer, so it is
        // the effect's own runs, with the CPU time that grew.
        #expect(run.standardOutput.contains("why the head is slower (the gate's runs"), "\(run.standardOutput)")
        #expect((document.effectGate?.why?.attribution?.cpuChange ?? 0) > 0, "\(document.effectGate?.why?.lines ?? [])")
        print(
            "bisect of \(document.commits) commits: \(document.steps.count) steps, \(document.elapsed) s (\(took) s with launchprof's start)"
        )
        #expect(try Self.state(of: repository) == before)
        #expect(access(repository + "/.git/BISECT_LOG", F_OK) != 0)
    }

    @Test("SIGINT mid-bisect stops the gate under way, exits 130, leaves no process behind and the repository as it was")
    func interrupted() throws {
        let scratch = try ScratchDirectory()
        let (repository, hashes) = try Self.repository(in: scratch)
        let before = try Self.state(of: repository)
        let marker = "lp-bisect-\(UInt32.random(in: 100_000...999_999))"
        let errors = scratch.file("stderr")
        try #require(FileManager.default.createFile(atPath: errors, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Products.path("launchprof"))
        process.currentDirectoryURL = URL(fileURLWithPath: repository)
        // A threshold no step can decide: the step under way runs for its whole budget.
        process.arguments = [
            "bisect", "--good", hashes[0], "--bad", hashes[Self.commits - 1], "--build", Self.build, "--threshold", "0.1",
            "--max-time", "120", "--", "out/app", marker,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline, !(try scratch.read("stderr")).contains("step 2 (") { usleep(50_000) }
        while Date() < deadline, Self.processes(withArgument: marker).isEmpty { usleep(5_000) }
        let progress = try scratch.read("stderr")
        try #require(!Self.processes(withArgument: marker).isEmpty, "no step was measuring within 90 s: \(progress)")
        kill(process.processIdentifier, SIGINT)
        let sent = Date()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 10)
        let said = try scratch.read("stderr")
        #expect(process.terminationStatus == 130, "\(said)")
        #expect(Self.processes(withArgument: marker).isEmpty)
        #expect(try Self.state(of: repository) == before)
    }

    @Test("bad not slower than good stops after the confirmation with 5; a good that is not an ancestor of bad is bad usage")
    func notSlowerAndUsage() throws {
        let scratch = try ScratchDirectory()
        let (repository, hashes) = try Self.repository(in: scratch)
        let before = try Self.state(of: repository)
        let same = try launchprof(
            [
                "bisect", "--good", hashes[1], "--bad", hashes[8], "--build", Self.build, "--threshold", "15", "--max-time", "20",
                "--max-runs", "400", "--", "out/app",
            ], in: repository)
        #expect(same.status == 5, "\(same.standardOutput)\(same.standardError)")
        #expect(same.standardOutput.contains("is not slower than --good \(hashes[1].prefix(12)) (unchanged)"), "\(same.standardOutput)")
        let swapped = try launchprof(
            ["bisect", "--good", hashes[9], "--bad", hashes[2], "--build", Self.build, "--", "out/app"], in: repository)
        #expect(swapped.status == 2)
        #expect(swapped.standardError.contains("is not an ancestor of --bad '\(hashes[2])'"), "\(swapped.standardError)")
        let unknown = try launchprof(["bisect", "--good", "nope", "--bad", "main", "--build", Self.build, "--", "out/app"], in: repository)
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("--good 'nope' is not a commit git knows"), "\(unknown.standardError)")
        #expect(try Self.state(of: repository) == before)
    }

    @Test("docs/bisect.md's recipe: git bisect run with gate's statuses mapped (3 and 4 skip) finds the same commit")
    func gitBisectRunRecipe() throws {
        let scratch = try ScratchDirectory()
        let (repository, hashes) = try Self.repository(in: scratch)
        // git bisect checks commits out in the tree: start from a clean one.
        try RevisionGateTests.git(["reset", "--quiet", "--hard"], in: repository)
        try RevisionGateTests.git(["bisect", "start", hashes[Self.commits - 1], hashes[Self.broken - 3]], in: repository)
        let gate =
            "'\(try Products.path("launchprof"))' gate --base \(hashes[Self.broken - 3]) --head HEAD --build '\(Self.build)' "
            + "--threshold 15 --max-time 20 --max-runs 400 -- out/app"
        let script = "\(gate)\n  s=$?; case $s in 0|1) exit $s ;; 3|4) exit 125 ;; *) exit 255 ;; esac"
        let run = try CommandRun.run(
            "/usr/bin/git", ["-C", repository, "bisect", "run", "sh", "-c", script],
            environment: ["GIT_CONFIG_NOSYSTEM": "1", "HOME": repository], timeout: 300)
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("\(hashes[Self.slower]) is the first bad commit"), "\(run.standardOutput)")
        try RevisionGateTests.git(["bisect", "reset"], in: repository)
    }

    @Test("the range is the first-parent chain kept to good's descendants: from a merged branch it is the merge and what follows")
    func firstParentRange() throws {
        let scratch = try ScratchDirectory()
        let repository = scratch.file("merged")
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        func git(_ arguments: [String]) throws -> String {
            try RevisionGateTests.git(arguments, in: repository).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func commit(_ name: String) throws -> String {
            try name.write(toFile: repository + "/\(name).txt", atomically: true, encoding: .utf8)
            _ = try git(["add", "\(name).txt"])
            _ = try git(["commit", "--quiet", "-m", name])
            return try git(["rev-parse", "HEAD"])
        }
        _ = try git(["init", "--quiet", "--initial-branch=main"])
        _ = try commit("m0")
        _ = try git(["checkout", "--quiet", "-b", "side"])
        let side = try commit("s1")
        _ = try commit("s2")
        _ = try git(["checkout", "--quiet", "main"])
        _ = try commit("m1")
        _ = try git(["merge", "--quiet", "--no-edit", "side"])
        let merge = try git(["rev-parse", "HEAD"])
        _ = try commit("m2")
        let run = try launchprof(
            ["bisect", "--good", side, "--bad", "main", "--build", "true", "--threshold", "50", "--max-time", "20", "--", "/bin/true"],
            in: repository)
        #expect(run.status == 5, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardError.contains("bisecting 2 commits from \(side.prefix(12)) s1"), "\(run.standardError)")
        let merged = try launchprof(
            ["bisect", "--good", "main~2", "--bad", "main", "--build", "true", "--threshold", "50", "--max-time", "20", "--", "/bin/true"],
            in: repository)
        #expect(merged.standardError.contains("bisecting 2 commits from"), "\(merged.standardError)")
        #expect(merge.count == 40)
    }

    /// Live processes with `argument` in their command line.
    static func processes(withArgument argument: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                data.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == argument })
            else { return nil }
            let stat = (try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8)) ?? ""
            return stat.contains(") Z ") ? nil : pid
        }
    }
}
