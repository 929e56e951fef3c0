import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import LaunchSupport
import Testing

/// `launchprof report DIR` over CI artifacts: real `launchprof run`s of the
/// C hello-world with CI's variables set (two commits, two runners, a
/// budget that one commit fails), read back from a directory that also
/// holds JSON that is not results.
@Suite("launchprof report: the fleet view")
struct FleetReportTests {

    @Test("runs of two commits on two runners: one chart per target, a point per run, failed budgets said, other JSON skipped")
    func fleetOverADirectory() throws {
        let directory = Products.temporaryPath("fleet")
        try FileManager.default.createDirectory(atPath: "\(directory)/artifacts/nested", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hello = try Products.path("lp-hello-c")
        // A budget nothing can meet for the second commit, one anything meets for the first.
        for (commit, limit) in [("aaaaaaa1111", "10s"), ("bbbbbbb2222", "1us")] {
            let config = "\(directory)/\(commit).yml"
            try """
            version: 1
            defaults: {runs: 3, warmup: 0, modes: [warm]}
            targets:
              - name: hello-c
                command: [\(hello)]
                budgets: [{metric: wall_to_ready, statistic: p50, limit: \(limit)}]
            """.write(toFile: config, atomically: true, encoding: .utf8)
            for runner in ["runner-a", "runner-b"] {
                let json = "\(directory)/artifacts/\(runner == "runner-a" ? "" : "nested/")\(commit)-\(runner).json"
                let run = try launchprof(
                    ["run", "--config", config, "--export-json", json],
                    environment: ["GITHUB_SHA": commit, "GITHUB_REF_NAME": "main", "RUNNER_NAME": runner])
                #expect(run.status == (limit == "1us" ? 1 : 0), "\(run.standardError)")
                let document = try ResultsDocument.load(from: json)
                #expect(
                    document.labels?["commit"] == commit && document.labels?["runner"] == runner && document.labels?["branch"] == "main")
            }
        }
        try "{\"name\": \"not results\"}".write(toFile: "\(directory)/artifacts/other.json", atomically: true, encoding: .utf8)

        let html = "\(directory)/fleet.html"
        let result = try launchprof(["report", "\(directory)/artifacts", "-o", html, "--svg-dir", "\(directory)/svg"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("skipped \(directory)/artifacts/other.json: "))
        #expect(result.standardError.contains("(4 results files)"))
        let text = try String(contentsOfFile: html, encoding: .utf8)
        let page = MarkupInspection.parse(text)
        try #require(page.error == nil, "\(page.error ?? "")")
        #expect(page.elements(named: "svg").compactMap { $0.attributes["id"] } == ["f1"])
        #expect(text.contains("4 results files · 2 machines (runner-a, runner-b) · 2 commits"))
        #expect(text.contains("budgets failed in 2 runs"))
        #expect(text.contains("Files left out"))

        // A point per run, its hover text the run's own median.
        for commit in ["aaaaaaa1111", "bbbbbbb2222"] {
            for runner in ["runner-a", "runner-b"] {
                let json = "\(directory)/artifacts/\(runner == "runner-a" ? "" : "nested/")\(commit)-\(runner).json"
                let median = try #require(try ResultsDocument.load(from: json).results[0].summaries["wall_to_ready"]?.median)
                let titles = Set(
                    page.titles(startingWith: "commit \(commit), branch main, on \(runner), ").filter { $0.contains(": median ") })
                #expect(titles.count == 1, "one point for \(commit) on \(runner)")
                let title = try #require(titles.first)
                #expect(title.contains(": median \(HumanUnits.duration(median)) "))
                #expect(title.contains("budget failed") == (commit == "bbbbbbb2222"))
                #expect(title.hasSuffix("[\(json)]"))
            }
        }
        // Columns are commits, labelled with their first 7 characters.
        #expect(text.contains("</title>aaaaaaa</text>") && text.contains("</title>bbbbbbb</text>"))
        #expect(FileManager.default.fileExists(atPath: "\(directory)/svg/1-hello-c-warm-history.svg"))
    }

    @Test("bad fleet inputs: a missing path, a directory with no results, a named file that is not results, --baseline")
    func badInputs() throws {
        let directory = Products.temporaryPath("fleet-bad")
        try FileManager.default.createDirectory(atPath: "\(directory)/empty", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "{}".write(toFile: "\(directory)/empty/x.json", atomically: true, encoding: .utf8)
        let html = "\(directory)/out.html"
        let missing = try launchprof(["report", "\(directory)/nope", "\(directory)/empty", "-o", html])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("'\(directory)/nope' does not exist"))
        let empty = try launchprof(["report", "\(directory)/empty", "-o", html])
        #expect(empty.status == 2)
        #expect(empty.standardError.contains("'\(directory)/empty' holds no launchprof results files (1 other JSON file skipped)"))
        let named = try launchprof(["report", "\(directory)/empty/x.json", "\(directory)/empty", "-o", html])
        #expect(named.status == 2)
        #expect(named.standardError.contains("results '\(directory)/empty/x.json' has no schema \"version\" field"))
        let baseline = try launchprof(["report", "\(directory)/empty", "--baseline", "main", "-o", html])
        #expect(baseline.status == 64 || baseline.status == 2)
        #expect(baseline.standardError.contains("--baseline and --trace apply to a report of one results file"))
        #expect(!FileManager.default.fileExists(atPath: html), "no page from bad input")
    }
}
