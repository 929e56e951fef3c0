import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof explain` on real results and a real trace of the sample app.
@Suite("launchprof explain", .serialized)
struct ExplainCommandTests {

    @Test("cold and warm results with a trace: pre-main, the critical path naming its largest step, cold reads, in JSON too")
    func explainsTheSampleApp() throws {
        let directory = Products.temporaryPath("explain")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = try Products.path("lp-sample-app")
        // 40 ms of work in 'build index' makes it the largest step beyond doubt.
        let record = try CommandRun.run(
            try Products.path("launchprof"), ["record", "--quiet", "--output", "\(directory)/app.lptrace", "--", app],
            environment: ["LP_SAMPLE_SLOW_INDEX_MS": "40"], workingDirectory: directory)
        try #require(record.status == 0, "\(record.standardError)")
        let run = try launchprof(
            [
                "run", "--ready", "tracer", "--mode", "cold", "--mode", "warm", "-r", "3", "-w", "1", "-n", "app",
                "--export-json", "results.json", "--", app,
            ], in: directory)
        try #require(run.status == 0, "\(run.standardError)")
        let explain = try launchprof(
            ["explain", "results.json", "--trace", "app.lptrace", "--loader", "--rerun-command", "--json", "insights.json"],
            in: directory)
        #expect(explain.status == 0, "\(explain.standardError)")
        #expect(explain.standardError.contains("--rerun-command: launching the command 'results.json' stores for 'app'"))
        #expect(explain.standardOutput.contains("app (cold)") && explain.standardOutput.contains("app (warm)"))
        #expect(explain.standardOutput.contains("'build index' is the largest step on the path"), "\(explain.standardOutput)")
        #expect(explain.standardOutput.contains("relocations"), "the loader's own numbers (--loader)")
        #expect(explain.standardOutput.contains("(LD_DEBUG=statistics)"))
        // And the loader's time by library, warm and cold, measured now (the results have none).
        #expect(explain.standardOutput.contains("the dynamic loader's time by library (app):"), "\(explain.standardOutput)")
        #expect(explain.standardOutput.contains("libswiftCore.so") && explain.standardOutput.contains("Relocate~ (cold)"))
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/insights.json"))
        let targets = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let cold = try #require(targets.first { $0["mode"] as? String == "cold" })
        let areas = Set((cold["insights"] as? [[String: Any]] ?? []).compactMap { $0["area"] as? String })
        #expect(areas.isSuperset(of: ["pre-main", "critical path", "cold files"]), "\(areas)")
        for insight in cold["insights"] as? [[String: Any]] ?? [] {
            #expect(!(insight["finding"] as? String ?? "").isEmpty && !(insight["action"] as? String ?? "").isEmpty)
        }
    }

    @Test("run --loader keeps the loader's time by library in the results and the report; explain --loader reads it back")
    func loaderTableThroughTheCLI() throws {
        let directory = Products.temporaryPath("explain-loader")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A library whose constructor sleeps 15 ms: the top of the table.
        try CCompiler.compile(
            """
            #include <time.h>
            __attribute__((constructor)) static void start(void) { struct timespec t = {0, 15000000}; nanosleep(&t, 0); }
            int slow_value(void) { return 1; }
            """, to: "\(directory)/libslowinit.so", flags: ["-shared", "-fPIC"], debugInfo: false)
        let program = try CCompiler.compile(
            "int slow_value(void);\nint main(void) { return slow_value() == 1 ? 0 : 1; }\n", to: "\(directory)/slow",
            flags: ["-L\(directory)", "-lslowinit", "-Wl,-rpath,\(directory)"], debugInfo: false)
        let run = try launchprof(
            [
                "run", "--loader", "2", "--mode", "warm", "-r", "2", "-w", "0", "-n", "slow", "--export-json", "r.json",
                "--report", "r.html", "--", program,
            ], in: directory)
        try #require(run.status == 0, "\(run.standardError)")
        let results = try ResultsDocument.load(from: "\(directory)/r.json")
        let loader = try #require(results.results.first?.loader)
        #expect(loader.launches == 2 && loader.libraries.first?.path.hasSuffix("/libslowinit.so") == true, "\(loader.libraries)")
        let html = try String(contentsOfFile: "\(directory)/r.html", encoding: .utf8)
        #expect(html.contains("The dynamic loader, library by library") && html.contains("libslowinit.so"))
        let explain = try launchprof(["explain", "r.json", "--loader", "--loader-runs", "2"], in: directory)
        #expect(explain.status == 0, "\(explain.standardError)")
        let table = explain.standardOutput.split(separator: "\n").drop { !$0.contains("Library") }
        #expect(table.dropFirst().first?.contains("libslowinit.so") == true, "\(explain.standardOutput)")
        // Cold was not measured by run --loader, and nothing is launched to measure it unasked.
        #expect(explain.standardOutput.contains("cold: not in 'r.json'"), "\(explain.standardOutput)")
        #expect(!explain.standardError.contains("--rerun-command: launching"), "\(explain.standardError)")
        let bad = try launchprof(["explain", "r.json", "--loader", "--loader-runs", "0"], in: directory)
        #expect(bad.status != 0 && bad.standardError.contains("--loader-runs"))
    }

    @Test("explain --loader never runs the command a results file stores unless --rerun-command asks, and then prints it first")
    func storedCommandRunsOnlyWhenAsked() throws {
        let directory = Products.temporaryPath("explain-stored-command")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try launchprof(
            ["run", "-r", "1", "-w", "0", "-n", "hello", "--export-json", "r.json", "--", try Products.path("lp-hello-c")],
            in: directory)
        try #require(run.status == 0, "\(run.standardError)")
        // The file as someone else could have written it: its command appends a line to a marker file.
        let marker = "\(directory)/marker"
        let url = URL(fileURLWithPath: "\(directory)/r.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var results = try #require(document["results"] as? [[String: Any]])
        var target = try #require(results[0]["target"] as? [String: Any])
        target["arguments"] = ["/bin/sh", "-c", "echo ran >> \(marker)"]
        target["environment"] = ["FROM_THE_FILE": "1"]
        results[0]["target"] = target
        document["results"] = results
        try JSONSerialization.data(withJSONObject: document).write(to: url)

        let refused = try launchprof(["explain", "r.json", "--loader"], in: directory)
        #expect(refused.status == 2, "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: marker), "explain --loader ran the file's command unasked")
        #expect(refused.standardError.contains("'r.json' has no loader data"), "\(refused.standardError)")
        #expect(refused.standardError.contains("launchprof run --loader 5 --export-json FILE -- PROGRAM"))
        #expect(refused.standardError.contains("--rerun-command"))
        #expect(refused.standardError.contains("env FROM_THE_FILE=1 /bin/sh -c 'echo ran >> \(marker)'"), "\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty, "\(refused.standardOutput)")
        // Without --loader, explain reads the file and runs nothing either.
        let plain = try launchprof(["explain", "r.json"], in: directory)
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        let unpaired = try launchprof(["explain", "r.json", "--rerun-command"], in: directory)
        #expect(unpaired.status != 0 && unpaired.standardError.contains("give --loader too"), "\(unpaired.standardError)")
        #expect(!FileManager.default.fileExists(atPath: marker))

        let asked = try launchprof(["explain", "r.json", "--loader", "--rerun-command", "--loader-runs", "1"], in: directory)
        #expect(asked.status == 0, "\(asked.standardError)")
        let announcement = try #require(
            asked.standardError.split(separator: "\n").first { $0.contains("--rerun-command: launching") }, "\(asked.standardError)")
        #expect(announcement.hasSuffix("env FROM_THE_FILE=1 /bin/sh -c 'echo ran >> \(marker)'"), "\(announcement)")
        // Once with LD_DEBUG=statistics, once audited warm, once cold: and only then.
        let lines = try String(contentsOfFile: marker, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3, "\(lines)")
    }

    @Test("bad input: a missing file, a target that is not there")
    func badInput() throws {
        let directory = Products.temporaryPath("explain-bad")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = try launchprof(["explain", "nope.json"], in: directory)
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("nope.json"))
        let run = try launchprof(
            ["run", "-r", "2", "-w", "0", "-n", "hello", "--export-json", "r.json", try Products.path("lp-hello-c")], in: directory)
        try #require(run.status == 0)
        let unknown = try launchprof(["explain", "r.json", "--target", "other"], in: directory)
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("has no target named 'other' (targets: hello)"))
    }

    @Test("a trace explains its program only: never the calibration workload, and with two targets --target names it")
    func traceOfOneProgram() throws {
        let directory = Products.temporaryPath("explain-one-trace")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = try Products.path("lp-sample-app")
        let record = try launchprof(["record", "--quiet", "--output", "app.lptrace", "--", app], in: directory)
        try #require(record.status == 0, "\(record.standardError)")
        let run = try launchprof(
            [
                "run", "--ready", "tracer", "--calibrate", "-r", "2", "-w", "0", "--export-json", "r.json",
                "-n", "app", app, "-n", "hello", app,
            ], in: directory)
        try #require(run.status == 0, "\(run.standardError)")
        let both = try launchprof(["explain", "r.json", "--trace", "app.lptrace"], in: directory)
        #expect(both.status == 2)
        #expect(both.standardError.contains("is a trace of one program"), "\(both.standardError)")
        #expect(both.standardError.contains("name the traced one with --target (targets: app, hello)"))
        let explain = try launchprof(["explain", "r.json", "--trace", "app.lptrace", "--target", "app"], in: directory)
        #expect(explain.status == 0, "\(explain.standardError)")
        #expect(explain.standardOutput.contains("critical path"), "\(explain.standardOutput)")
        // Without --target, every target but launchprof's own calibration workload.
        let all = try launchprof(["explain", "r.json"], in: directory)
        #expect(all.status == 0, "\(all.standardError)")
        #expect(all.standardOutput.contains("app (warm)") && all.standardOutput.contains("hello (warm)"))
        #expect(!all.standardOutput.contains("launchprof-calibration"), "\(all.standardOutput)")
        let calibration = try launchprof(["explain", "r.json", "--target", "launchprof-calibration"], in: directory)
        #expect(calibration.status == 0 && calibration.standardOutput.contains("launchprof-calibration"))
    }
}
