import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof history` over results files: a real `launchprof run` of the C
/// hello-world, copied into a history of 40 commits whose time to ready
/// steps up 12% at the 21st (the copies valid results documents, each
/// checked as it is read), plus JSON that is not results.
@Suite("launchprof history")
struct HistoryCommandTests {
    /// Writes `count` results files to `directory`, commit `c000…` onwards,
    /// an hour apart, time to ready × `factor(i)` (with ±`noise`, uniform), the
    /// runner `machine`. Returns the commits.
    static func writeHistory(
        from template: ResultsDocument, to directory: String, count: Int, machine: String = "runner-a",
        commits: [String]? = nil, noise: Double = 0.005, factor: (Int) -> Double
    ) throws -> [String] {
        var generator = SeededGenerator(seed: 42)
        let base = try #require(template.results.first?.summaries["wall_to_ready"]?.median)
        var written: [String] = []
        for index in 0..<count {
            var document = template
            let commit = commits?[index] ?? String(format: "c%03d%@", index, String(repeating: "a", count: 36))
            document.labels = ["commit": commit, "branch": "main", "runner": machine]
            document.date = String(format: "2026-10-%02dT%02d:00:00Z", 1 + index / 24, index % 24)
            let scatter = 1 + Double.random(in: -noise...noise, using: &generator)
            document.results[0].summaries["wall_to_ready"]?.median = base * factor(index) * scatter
            try document.writeJSON(to: "\(directory)/\(machine)-\(String(format: "%03d", index)).json")
            written.append(commit)
        }
        return written
    }

    /// One real run of lp-hello-c, warm, as the template.
    static func template(in directory: String) throws -> ResultsDocument {
        let json = "\(directory)/template.json"
        let run = try launchprof(
            ["run", "--runs", "5", "--warmup", "1", "--mode", "warm", "--export-json", json, "--", try Products.path("lp-hello-c")])
        try #require(run.status == 0, "\(run.standardError)")
        defer { try? FileManager.default.removeItem(atPath: json) }
        return try ResultsDocument.load(from: json)
    }

    @Test("a 12% step at the 21st commit: found there, with medians and p-value; exit 1 beyond the threshold, 0 under it")
    func stepFound() throws {
        let directory = Products.temporaryPath("history")
        try FileManager.default.createDirectory(atPath: "\(directory)/artifacts/nested", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let template = try Self.template(in: directory)
        let commits = try Self.writeHistory(from: template, to: "\(directory)/artifacts", count: 40) { $0 < 20 ? 1 : 1.12 }
        try "{\"name\": \"not results\"}".write(toFile: "\(directory)/artifacts/nested/other.json", atomically: true, encoding: .utf8)

        let json = "\(directory)/history.json"
        let result = try launchprof(["history", "\(directory)/artifacts", "--export-json", json])
        #expect(result.status == 1, "\(result.standardError)\n\(result.standardOutput)")
        #expect(result.standardError.contains("skipped \(directory)/artifacts/nested/other.json: "))
        #expect(result.standardOutput.contains("40 results files"))
        #expect(result.standardOutput.contains("lp-hello-c (warm) wall_to_ready on runner-a — 40 runs"))
        #expect(result.standardOutput.contains("at \(commits[20].prefix(10)) (2026-10-01T20:00:00Z, after \(commits[19].prefix(10)))"))
        #expect(result.standardOutput.contains("REGRESSED"))

        let analysis = try JSONDecoder().decode(HistoryAnalysis.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(analysis.files == 40 && analysis.skipped.count == 1)
        let ready = try #require(analysis.series.first { $0.key.metric == "wall_to_ready" })
        try #require(ready.changes.count == 1, "\(ready.changes)")
        let change = ready.changes[0]
        #expect(change.index == 20 && change.commit == commits[20] && change.previousCommit == commits[19])
        #expect(abs(change.change - 0.12) < 0.01)
        #expect(change.pValue < 0.001 && change.pointsBefore == 20 && change.pointsAfter == 20)
        #expect(change.source == "\(directory)/artifacts/runner-a-020.json")
        #expect(analysis.failing.map(\.series) == [ready.key])
        // Every other metric of the copies is constant: no change point.
        #expect(analysis.series.filter { $0.key.metric != "wall_to_ready" }.allSatisfy { $0.changes.isEmpty })

        let lenient = try launchprof(["history", "\(directory)/artifacts", "--threshold", "20%", "--metric", "wall_to_ready"])
        #expect(lenient.status == 0, "\(lenient.standardError)")
        #expect(lenient.standardOutput.contains("1 series"))
        #expect(lenient.standardOutput.contains("No series' newest change point is a regression beyond 20%"))
    }

    @Test("the fleet report marks the change point history finds, on its chart, with its hover text")
    func fleetReportMarks() throws {
        let directory = Products.temporaryPath("history-fleet")
        try FileManager.default.createDirectory(atPath: "\(directory)/artifacts", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let template = try Self.template(in: directory)
        let commits = try Self.writeHistory(from: template, to: "\(directory)/artifacts", count: 40) { $0 < 20 ? 1 : 1.12 }
        let html = "\(directory)/fleet.html"
        let report = try launchprof(["report", "\(directory)/artifacts", "-o", html])
        #expect(report.status == 0, "\(report.standardError)")
        let page = MarkupInspection.parse(try String(contentsOfFile: html, encoding: .utf8))
        try #require(page.error == nil, "\(page.error ?? "")")
        let marks = Set(page.titles(startingWith: "change point on runner-a: +"))
        #expect(marks.count == 1, "\(marks)")
        #expect(marks.first?.contains("from commit \(commits[20])") == true, "\(marks)")
    }

    @Test("an improvement last: exit 0; a constant history: no change point")
    func improvementAndFlat() throws {
        let directory = Products.temporaryPath("history-flat")
        try FileManager.default.createDirectory(atPath: "\(directory)/up-down", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(directory)/flat", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let template = try Self.template(in: directory)
        _ = try Self.writeHistory(from: template, to: "\(directory)/up-down", count: 45) { $0 < 15 ? 1 : ($0 < 30 ? 1.2 : 1) }
        // Noise alone gives a false change point now and then (the unit
        // tests count them); here the CLI's path for none.
        _ = try Self.writeHistory(from: template, to: "\(directory)/flat", count: 45, noise: 0) { _ in 1 }
        let upDown = try launchprof(["history", "\(directory)/up-down", "--metric", "wall_to_ready"])
        #expect(upDown.status == 0, "\(upDown.standardOutput)")
        #expect(upDown.standardOutput.contains("2 change points"))
        let flat = try launchprof(["history", "\(directory)/flat"])
        #expect(flat.status == 0)
        #expect(flat.standardOutput.contains(" 0 change points"))
    }

    @Test("--repository orders runs by git log, not by date; commits not in the log are skipped and named")
    func gitOrder() throws {
        let directory = Products.temporaryPath("history-git")
        let repository = "\(directory)/repo"
        try FileManager.default.createDirectory(atPath: "\(directory)/results", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func git(_ arguments: [String]) throws -> String {
            let run = try CommandRun.run(
                "/usr/bin/env", ["git", "-C", repository] + arguments,
                environment: ["GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"],
                workingDirectory: repository, timeout: 60)
            try #require(run.status == 0, "git \(arguments): \(run.standardError)")
            return run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try git(["init", "-q"])
        var commits: [String] = []
        for index in 0..<30 {
            _ = try git(["commit", "-q", "--allow-empty", "-m", "commit \(index)"])
            commits.append(try git(["rev-parse", "HEAD"]))
        }
        // Dates run backwards (the newest commit measured first), short hashes as CI labels often are.
        let template = try Self.template(in: directory)
        let labels = commits.reversed().map { String($0.prefix(12)) }
        _ = try Self.writeHistory(from: template, to: "\(directory)/results", count: 30, commits: labels) { index in
            index < 10 ? 1.15 : 1  // by date: the first ten (the newest commits) slow
        }
        var stray = template
        stray.labels = ["commit": "0123456789abcdef", "runner": "runner-a"]
        try stray.writeJSON(to: "\(directory)/results/stray.json")
        let json = "\(directory)/history.json"
        let byGit = try launchprof(
            ["history", "\(directory)/results", "--repository", repository, "--metric", "wall_to_ready", "--export-json", json])
        #expect(byGit.status == 1, "\(byGit.standardError)\n\(byGit.standardOutput)")
        #expect(
            byGit.standardError.contains(
                "skipped \(directory)/results/stray.json: its commit '0123456789abcdef' is not in the repository's git log"))
        let analysis = try JSONDecoder().decode(HistoryAnalysis.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(analysis.parameters.order == "git log")
        let change = try #require(analysis.series.first?.changes.first)
        // In git order the slow commits are the newest ten: commits[20] is the first slow one.
        #expect(change.index == 20 && change.commit == String(commits[20].prefix(12)), "\(change)")
        let notARepository = try launchprof(["history", "\(directory)/results", "--repository", "\(directory)/results"])
        #expect(notARepository.status == 2)
        #expect(notARepository.standardError.contains("cannot read the commits of '\(directory)/results' with git log"))
    }

    @Test("bad inputs: missing, a named file that is not results, a figure out of range, a directory without results")
    func badInputs() throws {
        let directory = Products.temporaryPath("history-bad")
        try FileManager.default.createDirectory(atPath: "\(directory)/empty", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "{}".write(toFile: "\(directory)/empty/x.json", atomically: true, encoding: .utf8)
        let missing = try launchprof(["history", "\(directory)/nope"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("'\(directory)/nope' does not exist"))
        let empty = try launchprof(["history", "\(directory)/empty"])
        #expect(empty.status == 2)
        #expect(empty.standardError.contains("'\(directory)/empty' holds no launchprof results files (1 other JSON file skipped)"))
        let named = try launchprof(["history", "\(directory)/empty/x.json"])
        #expect(named.status == 2)
        #expect(named.standardError.contains("results '\(directory)/empty/x.json' has no schema \"version\" field"))
        var bad = try Self.template(in: directory)
        bad.results[0].summaries["wall_to_ready"]?.median = -1
        let negative = "\(directory)/negative.json"
        try Data(JSONEncoder().encode(bad)).write(to: URL(fileURLWithPath: negative))
        let outOfRange = try launchprof(["history", negative])
        #expect(outOfRange.status == 2)
        #expect(outOfRange.standardError.contains("results '\(negative)': results[0].summaries.wall_to_ready.median is -1.0"))
        let window = try launchprof(["history", negative, "--window", "2"])
        #expect(window.status == 2 && window.standardError.contains("--window must be from 4 to 1000 points"))
    }
}
