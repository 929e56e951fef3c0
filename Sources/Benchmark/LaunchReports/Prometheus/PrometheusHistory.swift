import Foundation
import LaunchEngine
import LaunchSupport

/// A history read from a Prometheus server the fleet pushes to (through
/// the Pushgateway, docs/fleet.md), in the shape `launchprof history` reads
/// from results files: one series per target × mode × metric × machine,
/// each pushed run's median a point.
///
/// The Pushgateway keeps one push per group (target, mode, machine), and a
/// push with another `commit` label is a new Prometheus series. So one
/// instant query, `last_over_time(…{quantile="0.5"}[RANGE])`, returns every
/// run scraped within the range, each with its commit; and
/// `launchprof_last_run_timestamp_seconds` of the same labels says when each
/// was measured. The answers come through curl (as pushes do), bounded in
/// size and time, and are checked before any value is used.
package enum PrometheusHistory {
    /// The largest answer read: beyond it curl stops and the history fails.
    package static let largestAnswer = 64 * 1024 * 1024

    /// The series of `server` (`http://host:9090`) over the last `range` (a
    /// PromQL duration: `30d`, `12h`).
    package static func load(server: String, range: String, timeout: Duration = .seconds(30)) throws(HistoryError) -> ResultsHistory {
        guard server.hasPrefix("http://") || server.hasPrefix("https://") else {
            throw .prometheus(url: server, reason: "give the server's URL, e.g. http://127.0.0.1:9090")
        }
        guard range.range(of: #"^[0-9]+(ms|s|m|h|d|w|y)$"#, options: .regularExpression) != nil else {
            throw .prometheus(url: server, reason: "--range '\(range)' is not a PromQL duration (e.g. 30d, 12h)")
        }
        let metrics = Self.metrics
        let names = metrics.keys.sorted().joined(separator: "|")
        // One spawner for both queries' curl: the command's.
        let spawner = Spawner()
        let medians = try query(
            server: server, "last_over_time({__name__=~\"\(names)\",quantile=\"0.5\"}[\(range)])", timeout: timeout,
            spawner: spawner)
        let times = try query(
            server: server, "last_over_time(launchprof_last_run_timestamp_seconds[\(range)])", timeout: timeout, spawner: spawner)
        // When each run (its labels but the metric's name) was measured.
        var measured: [String: Double] = [:]
        for sample in times { measured[identity(sample.labels)] = sample.value }
        var grouped: [HistorySeriesKey: [(time: Double, point: HistoryPoint)]] = [:]
        var runs = Set<String>()
        for sample in medians {
            guard let name = sample.labels["__name__"], let (metric, divisor) = metrics[name],
                let target = sample.labels["target"], let modeName = sample.labels["mode"], let mode = LaunchMode(rawValue: modeName)
            else { continue }
            let run = identity(sample.labels)
            let time = measured[run] ?? sample.time
            runs.insert(run)
            let key = HistorySeriesKey(
                target: target, mode: mode, metric: metric.key,
                machine: sample.labels["runner"] ?? sample.labels["machine"] ?? sample.labels["instance"] ?? "unknown")
            let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: time))
            let point = HistoryPoint(median: sample.value * divisor, commit: sample.labels["commit"], date: date, source: server)
            grouped[key, default: []].append((time, point))
        }
        guard !grouped.isEmpty else {
            throw .prometheus(url: server, reason: "no launchprof series in the last \(range) (is the Pushgateway scraped?)")
        }
        let series = grouped.sorted { $0.key < $1.key }.map { key, points in
            (key: key, points: points.sorted { ($0.time, $0.point.commit ?? "") < ($1.time, $1.point.commit ?? "") }.map(\.point))
        }
        return ResultsHistory(series: series, files: runs.count, skipped: [])
    }

    /// The summary families a history reads, by their exposition name: the
    /// metric and the factor from the exposition's unit back to launchprof's.
    static var metrics: [String: (Metric, Double)] {
        let all: [Metric] = [
            .wallToReady, .wallToExit, .processEntry, .main, .userCPU, .systemCPU, .cpu, .maxRSS, .majorFaults, .minorFaults,
            .voluntaryContextSwitches, .involuntaryContextSwitches, .timeToSuspend, .timeToResume, .timeToShutdown,
            .firstResponseByte, .warmRequest, .instructions,
        ]
        var byName: [String: (Metric, Double)] = [:]
        for metric in all {
            guard let shape = metric.exposition, shape.labels.isEmpty else { continue }
            byName[shape.name] = (metric, shape.divisor)
        }
        return byName
    }

    /// One sample of an instant vector.
    struct Sample {
        var labels: [String: String]
        var time: Double
        var value: Double
    }

    /// A run's labels but the metric's name and quantile, as one string.
    static func identity(_ labels: [String: String]) -> String {
        labels.filter { $0.key != "__name__" && $0.key != "quantile" }.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }.joined(separator: "\u{0}")
    }

    static func query(server: String, _ promql: String, timeout: Duration, spawner: Spawner) throws(HistoryError) -> [Sample] {
        let url = server.hasSuffix("/") ? server + "api/v1/query" : server + "/api/v1/query"
        let arguments = [
            "--silent", "--show-error", "--fail-with-body", "--max-time", String(Int(timeout.seconds.rounded(.up))),
            "--max-filesize", String(largestAnswer), "--get", "--data-urlencode", "query=\(promql)", url,
        ]
        let tool: ToolProcess
        do {
            tool = try ToolProcess.run("curl", arguments: arguments, input: Data(), timeout: timeout + .seconds(5), spawner: spawner)
        } catch {
            throw .prometheus(url: server, reason: "cannot run curl: \(error)")
        }
        guard tool.end == .exited(0) else {
            let said = String(decoding: (tool.errorOutput + tool.output).prefix(1000), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw .prometheus(url: server, reason: "the query failed (\(tool.end)): \(TerminalText.sanitized(said))")
        }
        return try parse(tool.output, server: server)
    }

    /// An instant query's answer: `{"status":"success","data":{"resultType":
    /// "vector","result":[{"metric":{…},"value":[time,"value"]}…]}}`.
    /// Anything else is refused, naming what is wrong.
    static func parse(_ answer: Data, server: String) throws(HistoryError) -> [Sample] {
        func fail(_ reason: String) -> HistoryError { .prometheus(url: server, reason: "its answer \(reason)") }
        guard answer.count <= largestAnswer else { throw fail("is larger than \(largestAnswer) bytes") }
        guard let root = try? JSONSerialization.jsonObject(with: answer) as? [String: Any] else { throw fail("is not a JSON object") }
        guard root["status"] as? String == "success" else {
            throw fail("says \(root["status"].map { "\($0)" } ?? "no status"): \(root["error"].map { "\($0)" } ?? "")")
        }
        guard let data = root["data"] as? [String: Any], data["resultType"] as? String == "vector",
            let result = data["result"] as? [Any]
        else { throw fail("is not an instant vector") }
        var samples: [Sample] = []
        for (index, item) in result.enumerated() {
            guard let item = item as? [String: Any], let labels = item["metric"] as? [String: String],
                let pair = item["value"] as? [Any], pair.count == 2, let time = (pair[0] as? NSNumber)?.doubleValue,
                let text = pair[1] as? String, let value = Double(text), value.isFinite, value >= 0, time.isFinite, time > 0
            else { throw fail("has a malformed sample at result[\(index)]") }
            samples.append(Sample(labels: labels, time: time, value: value))
        }
        return samples
    }
}
