import Foundation
import LaunchProfTestSupport
import Testing

/// Each command starts one spawner process (lp-spawn) and sends everything it
/// launches through it: the measured runs and the loader's audited launches
/// of `run --loader`, `profile`'s launches and its llvm-symbolizer runs,
/// `explain --rerun-command`'s launches. LAUNCHPROF_SPAWNER names a script
/// that notes each start, then executes the real spawner.
@Suite(.serialized)
struct OneSpawnerPerCommandTests {
    /// Runs launchprof with `arguments` through the counting spawner, in
    /// `directory`; returns how many spawner processes it started.
    func spawnerStarts(_ arguments: [String], in directory: String, status: Int32 = 0) throws -> Int {
        let log = "\(directory)/spawner-starts"
        let wrapper = "\(directory)/lp-spawn-counting"
        try "#!/bin/sh\necho started >>'\(log)'\nexec '\(try Products.path("lp-spawn"))' \"$@\"\n"
            .write(toFile: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
        try? FileManager.default.removeItem(atPath: log)
        let run = try CommandRun.run(
            try Products.path("launchprof"), arguments, environment: ["LAUNCHPROF_SPAWNER": wrapper], workingDirectory: directory)
        #expect(run.status == status, "launchprof \(arguments.joined(separator: " ")): \(run.standardError)")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").count
    }

    @Test func runWithLoaderProfileAndExplainEachStartOneSpawner() throws {
        let directory = Products.temporaryPath("one-spawner")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hello = try Products.path("lp-hello-plain")
        // Two measured runs, then two audited launches: before, each audited
        // launch started a spawner of its own.
        let run = try spawnerStarts(
            ["run", "-r", "2", "-w", "0", "--mode", "warm", "--loader", "2", "--no-calibrate", "--export-json", "r.json", "--", hello],
            in: directory)
        #expect(run == 1, "run --loader started \(run) spawners")
        // Two sampled launches, then llvm-symbolizer (where installed) on
        // each module with debug info.
        let profile = try spawnerStarts(
            [
                "profile", "--runs", "2", "--quiet", "--sampler", "in-process", "--",
                try Products.path("lp-sample-app"), "--words", "2000", "--workers", "1", "--hot-ms", "20",
            ],
            in: directory)
        #expect(profile == 1, "profile started \(profile) spawners")
        // A results file without loader data: explain launches the command
        // with LD_DEBUG=statistics, then audits a launch warm and one cold.
        let plain = try spawnerStarts(
            ["run", "-r", "1", "-w", "0", "--mode", "warm", "--no-calibrate", "--export-json", "plain.json", "--", hello], in: directory)
        #expect(plain == 1, "run started \(plain) spawners")
        let explain = try spawnerStarts(["explain", "--loader", "--loader-runs", "1", "--rerun-command", "plain.json"], in: directory)
        #expect(explain == 1, "explain --rerun-command started \(explain) spawners")
        // The Pushgateway push's curl goes through the session's spawner
        // too (port 9: nobody listens, the push fails, the run exits 2).
        let push = try spawnerStarts(
            ["run", "-r", "1", "-w", "0", "--mode", "warm", "--no-calibrate", "--push-gateway", "http://127.0.0.1:9", "--", hello],
            in: directory, status: 2)
        #expect(push == 1, "run --push-gateway started \(push) spawners")
    }

    /// `gate --base REV --build`: git, the two builds, every measured run
    /// and the Why's traced runs and audited launches, through one spawner
    /// (before, each git command and each build started one, and the gate
    /// another).
    @Test func aGateOfRevisionsStartsOneSpawner() throws {
        let scratch = try ScratchDirectory()
        let repository = scratch.file("repo")
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try RevisionGateTests.git(["init", "--quiet", "--initial-branch=main"], in: repository)
        for rounds in [1_000_000, 20_000_000] {
            let source = spinProgram.replacingOccurrences(of: "long rounds = text ? atol(text) : 0;", with: "long rounds = \(rounds);")
            try source.write(toFile: repository + "/app.c", atomically: true, encoding: .utf8)
            try RevisionGateTests.git(["add", "app.c"], in: repository)
            try RevisionGateTests.git(["commit", "--quiet", "-m", "\(rounds) rounds"], in: repository)
        }
        let starts = try spawnerStarts(
            [
                "gate", "--base", "HEAD~1", "--build", "mkdir -p out && cc -O1 -o out/app app.c", "--threshold", "10",
                "--max-time", "60", "--cache-dir", scratch.file("builds"), "--", "out/app",
            ], in: repository, status: 1)
        #expect(starts == 1, "gate --base started \(starts) spawners")
    }
}
