import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof run --report` and `launchprof report` on the bundled samples,
/// as a user runs them: real launches, real traces, the page read back with
/// an XML parser and its numbers checked against the JSON export.
@Suite("launchprof report")
struct ReportCommandTests {
    @Test("run --report on the traced sample app to tracer ready: hover numbers equal the JSON")
    func runReportOnTheSampleApp() throws {
        let (html, json) = (Products.temporaryPath("app.html"), Products.temporaryPath("app.json"))
        defer {
            unlink(html)
            unlink(json)
        }
        let app = try Products.path("lp-sample-app")
        let result = try launchprof([
            "run", "-r", "4", "-w", "1", "--ready", "tracer", "-n", "sample-app", "--export-json", json, "--report", html,
            "--", app, "--words", "2000",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let page = MarkupInspection.parse(try String(contentsOfFile: html, encoding: .utf8))
        try #require(page.error == nil, "\(page.error ?? "")")
        let ids = page.elements(named: "svg").compactMap { $0.attributes["id"] }
        #expect(ids == ["t1-warm-timeline", "t1-distribution", "resources"])
        let document = try ResultsDocument.load(from: json)
        let runs = document.results[0].runs
        for run in runs {
            for (metric, value) in [
                ("time to ready", run.wallToReady),
                ("milestone 'index ready'", run.milestones.first { $0.name == "index ready" }?.nanoseconds),
            ] {
                let title = try #require(page.titles(startingWith: "sample-app (warm), \(metric), run \(run.index + 1): ").first)
                #expect(abs(try #require(nanoseconds(inHoverText: title)) - Double(try #require(value))) <= 0.5)
            }
        }
        for mark in ["process entry", "main", "config loaded", "index ready", "workers warm", "ready"] {
            #expect(!page.titles(startingWith: "sample-app (warm), \(mark): ").isEmpty, "no \(mark) mark")
        }
    }

    @Test("run --report on the C hello-world to exit")
    func runReportOnHelloC() throws {
        let html = Products.temporaryPath("hello.html")
        defer { unlink(html) }
        let result = try launchprof(["run", "-r", "3", "-w", "1", "-n", "hello-c", "--report", html, try Products.path("lp-hello-c")])
        #expect(result.status == 0, "\(result.standardError)")
        let text = try String(contentsOfFile: html, encoding: .utf8)
        let page = MarkupInspection.parse(text)
        #expect(page.error == nil, "\(page.error ?? "")")
        #expect(page.titles(startingWith: "hello-c (warm), time to ready, run ").count == 3)
        #expect(page.titles.contains { $0.hasPrefix("hello-c (warm), spawn → exit: ") })
        #expect(!text.contains("http:") && !text.contains("https:"))
    }

    @Test("a target that fails every run still gets a readable report, and run exits with 3")
    func failedTarget() throws {
        let html = Products.temporaryPath("false.html")
        defer { unlink(html) }
        let result = try launchprof(["run", "-r", "2", "-w", "0", "--report", html, "/bin/false"])
        #expect(result.status == 3)
        let text = try String(contentsOfFile: html, encoding: .utf8)
        #expect(MarkupInspection.parse(text).error == nil)
        // The benchmark stops at the first failed run; the report says why.
        #expect(text.contains("benchmark stopped: target &#39;/bin/false&#39; (warm), run 1: exited with status 1"))
        #expect(text.contains("no successful run"))
    }

    @Test("record, then report with the trace (matched by process name) and --svg-dir")
    func reportWithTraceAndSVGDirectory() throws {
        let directory = Products.temporaryPath("report-dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = try Products.path("lp-sample-app")
        let trace = "\(directory)/launch-1.lptrace"  // not named after the program: the process name decides
        let recorded = try launchprof(["record", "--quiet", "--output", trace, "--", app, "--words", "2000"])
        try #require(recorded.status == 0, "\(recorded.standardError)")
        let json = "\(directory)/results.json"
        let run = try launchprof(["run", "-r", "3", "-w", "0", "--ready", "tracer", "--export-json", json, "--", app, "--words", "2000"])
        try #require(run.status == 0, "\(run.standardError)")
        let html = "\(directory)/report.html"
        let charts = "\(directory)/charts"
        let result = try launchprof(["report", json, "--trace", trace, "-o", html, "--svg-dir", charts])
        #expect(result.status == 0, "\(result.standardError)")
        let text = try String(contentsOfFile: html, encoding: .utf8)
        let page = MarkupInspection.parse(text)
        #expect(page.error == nil, "\(page.error ?? "")")
        #expect(Set(page.titles.filter { $0.hasPrefix("warm cache: ") }).count == 3)  // one per worker thread
        #expect(text.contains(">lp-worker-1 (tid "))  // a lane per thread, named
        #expect(text.contains("traced launch, by thread"))
        let summary = try String(contentsOfFile: "\(charts)/summary.md", encoding: .utf8)
        let linked = summary.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("!["), let open = line.lastIndex(of: "(") else { return nil }
            return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
        }
        #expect(linked.count == 3)
        for file in linked {
            let svg = try String(contentsOfFile: "\(charts)/\(file)", encoding: .utf8)
            let parsed = MarkupInspection.parse(svg)
            #expect(parsed.error == nil, "\(file): \(parsed.error ?? "")")
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), "\(file) is not a standalone SVG")
        }
        #expect(summary.contains("| Target | Mode | Time to ready (median)"))
    }

    @Test("a deferred and prewarmed launch: its tasks are in the timeline")
    func deferredAndPrewarmTasks() throws {
        let directory = Products.temporaryPath("deferred")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let program = try Products.path("lp-sample-deferred")
        let trace = "\(directory)/t.lptrace"
        try #require(try launchprof(["record", "--quiet", "--output", trace, "--", program, "--launch", "optimized"]).status == 0)
        let json = "\(directory)/results.json"
        let run = try launchprof(["run", "-r", "2", "-w", "0", "--ready", "tracer", "-n", "deferred", "--export-json", json, "--", program])
        try #require(run.status == 0, "\(run.standardError)")
        let html = "\(directory)/report.html"
        let result = try launchprof(["report", json, "--trace", "deferred=\(trace)", "-o", html])
        #expect(result.status == 0, "\(result.standardError)")
        let page = MarkupInspection.parse(try String(contentsOfFile: html, encoding: .utf8))
        #expect(page.titles.contains { $0.hasPrefix("search index: ") && $0.hasSuffix("(launchprof/deferred)") })
        #expect(page.titles.contains { $0.hasPrefix("templates: ") && $0.hasSuffix("(launchprof/prewarm)") })
        #expect(page.elements(named: "pattern").contains { $0.attributes["id"] == "t1-warm-timeline-deferred" })
    }

    @Test("bad inputs are named and exit with 2")
    func badInputs() throws {
        let missing = try launchprof(["report", "/no/such/results.json", "-o", Products.temporaryPath("x.html")])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read results '/no/such/results.json'"))
        let noOutput = try launchprof(["report", "/no/such/results.json"])
        #expect(noOutput.status == 2)
        #expect(noOutput.standardError.contains("give the report's file with -o FILE"))

        let json = Products.temporaryPath("ok.json")
        defer { unlink(json) }
        try #require(try launchprof(["run", "-r", "1", "-w", "0", "-n", "t", "--export-json", json, "/bin/true"]).status == 0)
        let badTrace = try launchprof(["report", json, "--trace", "t=\(json)", "-o", Products.temporaryPath("x.html")])
        #expect(badTrace.status == 2)
        #expect(badTrace.standardError.contains("--trace: ") && badTrace.standardError.contains(json))
        let unwritable = try launchprof(["report", json, "-o", "/no/such/dir/report.html"])
        #expect(unwritable.status == 2)
        #expect(unwritable.standardError.contains("cannot write '/no/such/dir/report.html'"))
    }

}
