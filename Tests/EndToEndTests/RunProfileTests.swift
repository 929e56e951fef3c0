import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof run --profile` and the launch-window options of `launchprof
/// profile` (--runs, --ready) on real programs.
@Suite(.serialized)
struct RunProfileTests {
    @Test("a baseline saved with its profile; a regression's differential profile names the function that grew")
    func differentialProfileAgainstABaseline() throws {
        let directory = Products.temporaryPath("diff-profile")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = try Products.path("lp-sample-app")
        // Judged as measured (--no-calibrate): this test is about the
        // differential profile; the calibration has tests of its own
        // (BaselineCalibrationTests). A small index and one worker keep the
        // launch short, so the 40 ms it adds is several times the launch and
        // far past what the machine's load can move between the two
        // sessions (with 5,000 words and three workers, a debug launch of
        // 100-250 ms on a busy machine, the baseline measured while busier
        // hid the 40 ms twice: exit 0, not 1). Across time is what `gate`
        // avoids; this test compares across time on purpose.
        let common = [
            "run", "--ready", "tracer", "--runs", "15", "--warmup", "1", "--profile", "--profile-runs", "6",
            "--profile-dir", "\(directory)/profiles", "-n", "app", "--no-calibrate",
        ]
        let saved = try CommandRun.run(
            try Products.path("launchprof"), common + ["--save-baseline", "before", "--", app, "--words", "500", "--workers", "1"],
            workingDirectory: directory, timeout: 300)
        try #require(saved.status == 0, "\(saved.standardError)")
        for file in ["app.folded", "app.svg", "app.speedscope.json", "app.pb.gz"] {
            #expect(
                FileManager.default.fileExists(atPath: "\(directory)/.launchprof/baselines/before.profiles/\(file)"),
                "the baseline keeps a copy of its profile's \(file)")
        }
        let slower = try CommandRun.run(
            try Products.path("launchprof"),
            common + [
                "--baseline", "before", "--export-json", "\(directory)/after.json", "--report", "\(directory)/after.html",
                "--", app, "--words", "500", "--workers", "1",
            ],
            environment: ["LP_SAMPLE_SLOW_INDEX_MS": "40"], workingDirectory: directory, timeout: 300)
        #expect(slower.status == 1, "a regression: \(slower.standardError)")
        #expect(slower.standardError.contains("differential flame graph"), "\(slower.standardError)")
        let comparison = try #require(try ResultsDocument.load(from: "\(directory)/after.json").comparison)
        let difference = try #require(comparison.profileDifferences?.first)
        let burn = try #require(difference.functions.first { $0.name.contains("SampleApp.burn") }, "\(difference.functions.map(\.name))")
        // The baseline calls burn too, with 0 ms: a sample may catch that
        // call now and then (a thread preempted there is sampled off CPU
        // there on a busy machine: 1 sample in 6 runs in CI), so "before"
        // is under a sample a run, not none.
        #expect(burn.totalBefore < 1 && burn.totalAfter > 5, "the added work: \(burn)")
        let svg = try String(contentsOfFile: try #require(difference.flameGraph), encoding: .utf8)
        #expect(svg.contains("SampleApp.burn") && svg.contains("rgb(255,"), "the grown frames are drawn red")
        let attribution = try #require(comparison.attribution(of: "app", .warm))
        #expect(attribution.contributors.first?.name == "interval 'build index' (launch path)")
        // The report: why, the differential profile drawn inline, the insights; still one well-formed page.
        let html = try String(contentsOfFile: "\(directory)/after.html", encoding: .utf8)
        #expect(html.contains("<h3>Why app (warm) changed by +"))
        #expect(html.contains("Against the baseline&#39;s profile") || html.contains("Against the baseline's profile"))
        #expect(html.contains("Insights: app (warm)"))
        #expect(html.contains("phases, baseline against now"), "the phase-by-phase waterfall")
        #expect(MarkupInspection.parse(html).error == nil)
    }

    @Test func runProfileSamplesEachTargetAfterMeasuringIt() throws {
        let directory = Products.temporaryPath("run-profile")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = try Products.path("lp-sample-app")
        let run = try CommandRun.run(
            try Products.path("launchprof"),
            [
                "run", "--runs", "3", "--warmup", "0", "--profile", "--profile-runs", "3", "--profile-dir", directory,
                "--export-json", "\(directory)/results.json", "--report", "\(directory)/report.html",
                "--command-name", "hot app", "\(app) --hot-ms 300 --words 2000 --workers 1",
            ])
        try #require(run.status == 0, "\(run.standardError)")
        // The hotspot is 300 ms of CPU whatever the machine; the app's other
        // work (its index, its workers, a debug build's runtime) takes longer
        // the slower the machine: on CI's, the default 40,000 words and three
        // workers took as much CPU as the hotspot (its share 0.48). A small
        // index and one worker keep the hotspot on top on any machine.
        // The measured report came first, then the profile's summary.
        #expect(run.standardOutput.contains("hot app"))
        #expect(run.standardError.contains("profile of 'hot app':"), "\(run.standardError)")
        #expect(run.standardError.contains("from 3 launches"), "\(run.standardError)")
        for file in [
            "hot-app-1.lptrace", "hot-app-2.lptrace", "hot-app-3.lptrace", "hot-app.folded", "hot-app.speedscope.json", "hot-app.svg",
        ] {
            #expect(FileManager.default.fileExists(atPath: "\(directory)/\(file)"), "\(file) is missing")
        }
        let stacks = try SamplerPrograms.folded("\(directory)/hot-app.folded")
        let total = stacks.reduce(0) { $0 + $1.weight }
        let hot = stacks.filter { $0.frames.last?.contains("computeLaunchHotspot") == true }.reduce(0) { $0 + $1.weight }
        #expect(Double(hot) > 0.5 * Double(total), "\(stacks)")
        // Each launch was sampled on its own and carries its own trace.
        let traces = try (1...3).map { try TraceReader.read(path: "\(directory)/hot-app-\($0).lptrace") }
        #expect(Set(traces.map(\.header.pid)).count == 3)
        #expect(traces.allSatisfy { $0.sampling != nil && $0.header.launchCompleteNanoseconds != nil })
        let speedscope =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(directory)/hot-app.speedscope.json"))) as? [String: Any]
        let names = (speedscope?["profiles"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.contains { $0.hasPrefix("run 3: ") }, "one profile per launch and thread: \(names)")
        // The results list the profile; the report draws its flame graph.
        let results = try ResultsDocument.load(from: "\(directory)/results.json")
        let record = try #require(results.profiles?.first)
        #expect(record.target == "hot app" && record.launches == 3 && record.flameGraph == "\(directory)/hot-app.svg")
        let hottest = try #require(record.hottest.first)
        #expect(hottest.name.contains("computeLaunchHotspot") && hottest.share > 0.5, "\(record.hottest)")
        let html = try String(contentsOfFile: "\(directory)/report.html", encoding: .utf8)
        #expect(html.contains("<svg id=\"t1-profile\""))
        #expect(html.contains("computeLaunchHotspot"))
        #expect(!html.contains("<script"))
    }

    /// `run --profile --profile-clock wall`: the lock-wait sample's wait is in
    /// the profile, off CPU under the call that waited, in the folded stacks,
    /// the report's flame graph and the results (which say the clock).
    @Test func runProfileOnTheWallClockShowsTheWaitEverywhere() throws {
        let directory = Products.temporaryPath("run-profile-wall")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let program = try Products.path("lp-sample-lock-wait")
        let run = try CommandRun.run(
            try Products.path("launchprof"),
            [
                "run", "--runs", "2", "--warmup", "0", "--ready", "tracer", "--profile", "--profile-runs", "2",
                "--profile-clock", "wall", "--profile-dir", directory, "--export-json", "\(directory)/results.json",
                "--report", "\(directory)/report.html", "--command-name", "lock wait", "\(program) --hold-ms 100",
            ])
        try #require(run.status == 0, "\(run.standardError)")
        let stacks = try SamplerPrograms.folded("\(directory)/lock-wait.folded")
        let waited = stacks.filter { $0.frames.first == "[off CPU]" && $0.frames.contains { $0.contains("waitForCatalog") } }
        #expect(waited.reduce(0) { $0 + $1.weight } >= 100, "\(stacks)")
        let record = try #require(try ResultsDocument.load(from: "\(directory)/results.json").profiles?.first)
        #expect(record.clock == "wall")
        let html = try String(contentsOfFile: "\(directory)/report.html", encoding: .utf8)
        #expect(html.contains("[off CPU]") && html.contains("waitForCatalog"))
    }

    @Test func profileOptionsNeedProfile() throws {
        let run = try CommandRun.run(try Products.path("launchprof"), ["run", "--profile-runs", "3", "/bin/true"])
        #expect(run.status == 2)
        #expect(
            run.standardError.contains(
                "--profile-runs, --profile-hz, --profile-dir, --profile-clock and --profile-sampler apply with --profile"),
            "\(run.standardError)")
        let zero = try CommandRun.run(try Products.path("launchprof"), ["run", "--profile", "--profile-runs", "0", "/bin/true"])
        #expect(zero.status == 2)
        #expect(zero.standardError.contains("--profile-runs must be from 1 to 1000, got '0'"), "\(zero.standardError)")
    }

    /// A LaunchProf server stays up: with --ready tracer it writes its trace
    /// at launch complete and is stopped with SIGTERM once ready.
    @Test func aServerIsProfiledUntilReadyThenStopped() throws {
        let directory = Products.temporaryPath("profile-server")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try CommandRun.run(
            try Products.path("launchprof"),
            [
                "profile", "--quiet", "--ready", "tracer", "--runs", "2", "--output-dir", directory, "--name", "server", "--",
                try Products.path("lp-sample-server"), "--port", "0",
            ],
            timeout: 60)
        try #require(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("stopped by launchprof after ready"), "\(run.standardError)")
        for index in 1...2 {
            let trace = try TraceReader.read(path: "\(directory)/server-\(index).lptrace")
            let complete = try #require(trace.header.launchCompleteNanoseconds)
            let sampling = try #require(trace.sampling)
            #expect(sampling.stopNanoseconds <= complete + 1_000_000, "sampling stopped at launch complete")
        }
    }

    /// A program that does not link LaunchProf writes its samples at exit;
    /// SIGTERM's default action skips that, and the error says so.
    @Test func aPlainProgramKilledAfterReadyExplainsTheMissingTrace() throws {
        let binary = try SamplerPrograms.compile(
            """
            #include <stdio.h>
            #include <unistd.h>
            int main(void) { printf("listening\\n"); fflush(stdout); for (;;) pause(); }
            """, name: "waits")
        defer { unlink(binary) }
        let directory = Products.temporaryPath("profile-waits")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try CommandRun.run(
            try Products.path("launchprof"),
            [
                "profile", "--sampler", "in-process", "--quiet", "--runs", "1", "--ready", "output:listening", "--grace", "1",
                "--output-dir",
                directory, "--", binary,
            ],
            timeout: 60)
        #expect(run.status == 3)
        #expect(run.standardError.contains("wrote no trace"), "\(run.standardError)")
        #expect(run.standardError.contains("SIGTERM"), "\(run.standardError)")
    }

    /// A target that cannot be profiled makes `run` exit with 3, unless a
    /// budget was exceeded: then 1, the verdict on the measured runs.
    @Test func aProfileFailureDoesNotHideAnExceededBudget() throws {
        let binary = try SamplerPrograms.compile(
            """
            #include <stdio.h>
            #include <unistd.h>
            int main(void) { printf("listening\\n"); fflush(stdout); for (;;) pause(); }
            """, name: "waits-budget")
        defer { unlink(binary) }
        let directory = Products.temporaryPath("run-profile-exit")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func config(budget: String) -> String {
            """
            version: 1
            defaults: {runs: 3, warmup: 0, ready: "output:listening", timeout: 10s}
            targets:
              - name: waits
                command: [\(binary)]
            \(budget)
            """
        }
        let exceeded = "    budgets:\n      - {metric: wall_to_ready, statistic: p50, limit: 1ns}"
        for (budget, status) in [(exceeded, Int32(1)), ("", Int32(3))] {
            let path = "\(directory)/launchprof.yml"
            try config(budget: budget).write(toFile: path, atomically: true, encoding: .utf8)
            let run = try CommandRun.run(
                try Products.path("launchprof"),
                [
                    "run", "--config", path, "--profile", "--profile-runs", "1", "--profile-sampler", "in-process", "--profile-dir",
                    "\(directory)/profiles", "--grace", "1",
                ],
                timeout: 60)
            #expect(run.status == status, "\(run.standardError)")
            #expect(run.standardError.contains("cannot profile 'waits'"), "\(run.standardError)")
        }
    }

    @Test func aBadProfileDirectoryIsRefusedBeforeMeasuring() throws {
        let run = try CommandRun.run(
            try Products.path("launchprof"), ["run", "--profile", "--profile-dir", "/proc/launchprof-nope", "--runs", "50", "sleep 1"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("--profile-dir: cannot create '/proc/launchprof-nope'"), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty, "nothing was measured")
    }
}
