import Foundation
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// The Prometheus text exposition of results: names and units, one HELP and
/// TYPE per family, escaping, push groups and the labels' sources.
@Suite("Prometheus exposition")
struct PrometheusExpositionTests {
    let labels = MetricLabels([("machine", "bench-1"), ("version", "0.1.0"), ("commit", "abc123")])

    func document() -> ResultsDocument {
        var document = ReportFixtures.document()
        document.budgets = BudgetEvaluator(budgets: [
            Budget(target: "sample-app", metric: .wallToReady, limit: .ratio(1.5, reference: "hello-c")),
            Budget(target: "sample-app", metric: .maxRSS, limit: .absolute(Quantity(value: 40 * 1_048_576, unit: .bytes))),
        ]).evaluate(document.results)
        return document
    }

    /// The sample lines of `family` (not its comments).
    func samples(_ text: String, _ family: String) -> [Substring] {
        text.split(separator: "\n").filter {
            $0.hasPrefix(family + "{") || $0.hasPrefix(family + "_sum{") || $0.hasPrefix(family + "_count{")
        }
    }

    @Test("time to ready is a summary in seconds: four quantiles, _sum and _count, equal to the results' own numbers")
    func timeToReady() throws {
        let document = document()
        let text = PrometheusExposition(labels: labels).text(document)
        let app = try #require(document.results.first { $0.target.name == "sample-app" })
        let summary = try #require(app.summaries["wall_to_ready"])
        let lines = samples(text, "launchprof_time_to_ready_seconds").filter { $0.contains("target=\"sample-app\"") }
        #expect(lines.count == 6)
        #expect(
            lines.contains(
                "launchprof_time_to_ready_seconds{target=\"sample-app\",mode=\"warm\",quantile=\"0.5\",machine=\"bench-1\",version=\"0.1.0\",commit=\"abc123\"} \(summary.median / 1e9)"
            ))
        #expect(lines.contains { $0.contains("quantile=\"0.99\"") && $0.hasSuffix(" \(summary.p99 / 1e9)") })
        #expect(lines.contains { $0.hasPrefix("launchprof_time_to_ready_seconds_count{") && $0.hasSuffix(" \(summary.count)") })
        #expect(text.contains("# TYPE launchprof_time_to_ready_seconds summary\n"))
        #expect(text.contains("# TYPE launchprof_max_rss_bytes summary\n"))
        #expect(
            text.contains("launchprof_milestone_seconds{target=\"sample-app\",mode=\"warm\",milestone=\"config loaded\",quantile=\"0.5\""))
    }

    @Test("each family has one HELP and one TYPE, and its series follow them together")
    func familiesAreContiguous() {
        let text = PrometheusExposition(labels: labels).text(document())
        var seen: [String] = []
        var current = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let name = String(line.split(separator: " ")[2])
                #expect(!seen.contains(name), "\(name) has two TYPE lines")
                seen.append(name)
                current = name
            } else if !line.hasPrefix("#") {
                let name = String(line.prefix { $0 != "{" })
                #expect(name == current || name == current + "_sum" || name == current + "_count", "\(line) is not under its TYPE")
            }
        }
        #expect(seen.contains("launchprof_runs") && seen.contains("launchprof_budget_passed"))
    }

    @Test("budgets are gauges: 1 met, 0 exceeded, with the limit as written")
    func budgets() {
        let text = PrometheusExposition(labels: labels).text(document())
        let lines = samples(text, "launchprof_budget_passed")
        #expect(lines.count == 2, "\(lines)")
        #expect(
            lines.contains { $0.contains("metric=\"wall_to_ready\"") && $0.contains("limit=\"<= 1.50x hello-c\"") && $0.hasSuffix(" 0") },
            "\(lines)")
        #expect(lines.contains { $0.contains("metric=\"max_rss\"") && $0.hasSuffix(" 1") })
    }

    @Test("a regression against a baseline is a gauge of 1 with the change beside it")
    func regressions() {
        var baseline = ReportFixtures.document()
        baseline.results = baseline.results.map { result in
            BenchmarkResult(
                target: result.target, mode: result.mode,
                runs: result.runs.map { run in
                    var run = run
                    run.wallToReady = run.wallToReady.map { result.target.name == "sample-app" ? $0 / 2 : $0 }
                    return run
                })
        }
        let compared = ReportFixtures.document().compared(with: baseline, named: "main", settings: BenchmarkSettings())
        let text = PrometheusExposition(labels: labels).text(compared)
        let regression = samples(text, "launchprof_regression").filter { $0.contains("target=\"sample-app\"") }
        #expect(regression.contains { $0.contains("metric=\"wall_to_ready\"") && $0.contains("baseline=\"main\"") && $0.hasSuffix(" 1") })
        #expect(
            samples(text, "launchprof_change_ratio").contains {
                $0.contains("target=\"sample-app\"") && $0.contains("metric=\"wall_to_ready\"")
            })
    }

    @Test("label values are escaped: backslash, double quote, line feed")
    func escaping() {
        var document = document()
        document.results[0].target.name = "say \"hi\"\\\nbye"
        let text = PrometheusExposition(labels: labels).text(document)
        #expect(text.contains("target=\"say \\\"hi\\\"\\\\\\nbye\""))
        #expect(!text.contains("bye\",mode") || text.contains("\\nbye"))
    }

    @Test("every control character of a label value is escaped or made visible, scalar by scalar (CR LF is one Character)")
    func controlCharactersEscaped() {
        #expect(PrometheusExposition.escapeLabel("a\r\nb") == "a␍\\nb")
        let every = String(String.UnicodeScalarView((0..<0xa0).compactMap { Unicode.Scalar($0) }))
        let escaped = PrometheusExposition.escapeLabel(every)
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7f..<0xa0).contains($0.value) })
        #expect(escaped.hasPrefix("␀␁␂"))
        #expect(PrometheusExposition.escapeHelp("a\r\nb\\") == "a␍\\nb\\\\")
        #expect(PrometheusExposition.metricName("9 bad-name:x") == "__bad_name:x")
        #expect(PrometheusExposition.labelName("a:b") == "a_b")
    }

    @Test("push groups: one per target and mode, each with only its own series")
    func groups() {
        let groups = PrometheusExposition(labels: labels).groups(document())
        #expect(groups.map(\.target) == ["hello-c", "sample-app"])
        #expect(!groups[0].text.contains("sample-app"))
        #expect(groups[0].text.contains("# TYPE launchprof_time_to_ready_seconds summary"))
        #expect(!groups[0].text.contains("launchprof_budget_passed"), "hello-c has no budget")
    }

    @Test("standard labels: machine and version, then CI's commit, branch and runner from the usual variables")
    func standardLabels() {
        let github = MetricLabels.standard(
            machine: "m", environment: ["GITHUB_SHA": "abc", "GITHUB_REF_NAME": "main", "RUNNER_NAME": "r1"])
        #expect(github.pairs.map(\.name) == ["machine", "version", "commit", "branch", "runner"])
        #expect(github["commit"] == "abc" && github["branch"] == "main" && github["runner"] == "r1")
        let gitlab = MetricLabels.standard(machine: "m", environment: ["CI_COMMIT_SHA": "def", "CI_COMMIT_REF_NAME": "dev"])
        #expect(gitlab["commit"] == "def" && gitlab["branch"] == "dev" && gitlab["runner"] == nil)
        #expect(MetricLabels.standard(machine: "m", environment: [:]).pairs.count == 2)
    }

    @Test("--label: NAME=VALUE with a Prometheus name, not one launchprof sets; flags win over the config's labels")
    func labelFlags() throws {
        #expect(try MetricLabels.parse("team=perf") == ("team", "perf") as (String, String))
        #expect(try MetricLabels.parse("empty=").value == "")
        #expect(throws: MetricLabelError.notAPair("team")) { try MetricLabels.parse("team") }
        #expect(throws: MetricLabelError.badName("1x=a", "1x")) { try MetricLabels.parse("1x=a") }
        #expect(throws: MetricLabelError.badName("__x=a", "__x")) { try MetricLabels.parse("__x=a") }
        #expect(throws: MetricLabelError.reserved("target=a", "target")) { try MetricLabels.parse("target=a") }
        let labels = try MetricLabels.resolve(
            flags: ["team=perf", "commit=override"], configured: ["team": "config", "site": "eu"], machine: "m",
            environment: ["GITHUB_SHA": "abc", "GITHUB_REF_NAME": "main"])
        #expect(labels["team"] == "perf")
        #expect(labels["site"] == "eu")
        #expect(labels["commit"] == "override")
        #expect(labels.documentLabels == ["team": "perf", "site": "eu", "commit": "override", "branch": "main"])
        #expect(MetricLabels.standard(machine: "m", environment: [:]).documentLabels == nil, "machine and version are the document's own")
        let export = try #require(try MetricsExport.resolve(gatewayFlag: nil, file: "/tmp/x.prom", config: nil, labels: labels))
        #expect(export.labels == labels)
        #expect(export.gateway == nil)
        #expect(try MetricsExport.resolve(gatewayFlag: nil, file: nil, config: nil, labels: labels) == nil)
    }

    @Test("a gateway URL: http or https with a host; each group's path keys job, target, mode and machine in base64url")
    func gatewayURL() throws {
        let gateway = try PushGateway(url: "http://127.0.0.1:9091/")
        #expect(
            gateway.groupURL(target: "a/b", mode: .cold, machine: "host")
                == "http://127.0.0.1:9091/metrics/job@base64/bGF1bmNocHJvZg==/target@base64/YS9i/mode/cold/machine@base64/aG9zdA==")
        #expect(PushGateway.base64URL("") == "=")
        #expect(PushGateway.base64URL("\u{FB}\u{FF}") == "w7vDvw==")  // '+' and '/' would be '-' and '_'
        for bad in ["ftp://x", "127.0.0.1:9091", "http://", "http://x?y=1", "not a url"] {
            #expect(throws: PushError.badURL(bad)) { try PushGateway(url: bad) }
        }
    }

    @Test("a push to a port nobody listens on fails naming the group's URL, after curl's own reason")
    func pushFails() throws {
        let gateway = try PushGateway(url: "http://127.0.0.1:9", timeout: .seconds(5))
        let error = #expect(throws: PushError.self) {
            try gateway.push(document(), exposition: PrometheusExposition(labels: labels))
        }
        #expect(
            error?.description.hasPrefix("cannot push to http://127.0.0.1:9/metrics/job@base64/") == true, "\(String(describing: error))")
        #expect(error?.description.contains("curl exited with 7") == true, "\(String(describing: error))")
    }

    @Test("numbers: integers without a fraction, NaN and infinities as the format spells them")
    func numbers() {
        #expect(PrometheusExposition.number(3) == "3")
        #expect(PrometheusExposition.number(0.25) == "0.25")
        #expect(PrometheusExposition.number(.nan) == "NaN")
        #expect(PrometheusExposition.number(.infinity) == "+Inf")
        #expect(PrometheusExposition.number(-.infinity) == "-Inf")
    }
}
