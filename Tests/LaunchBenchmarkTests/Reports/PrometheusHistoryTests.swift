import Foundation
import Testing

@testable import LaunchEngine
@testable import LaunchReports

/// `history --prometheus`'s reading of Prometheus's answers: the instant
/// vector it asks for, and every answer it must refuse with the reason.
/// (Against a real Prometheus: Scripts/checks/check-prometheus.sh.)
@Suite("Prometheus history answers")
struct PrometheusHistoryTests {
    let server = "http://127.0.0.1:9090"

    @Test("an instant vector: each sample's labels, time and value")
    func vector() throws {
        let answer = """
            {"status":"success","data":{"resultType":"vector","result":[
              {"metric":{"__name__":"launchprof_time_to_ready_seconds","target":"app","mode":"warm","commit":"abc","quantile":"0.5"},
               "value":[1764200000.5,"0.0123"]}]}}
            """
        let samples = try PrometheusHistory.parse(Data(answer.utf8), server: server)
        #expect(samples.count == 1)
        #expect(samples.first?.labels["commit"] == "abc")
        #expect(samples.first?.value == 0.0123 && samples.first?.time == 1_764_200_000.5)
        // A run's identity leaves out the metric's name and the quantile,
        // so its median and its timestamp series meet.
        let timestamp = ["__name__": "launchprof_last_run_timestamp_seconds", "target": "app", "mode": "warm", "commit": "abc"]
        #expect(PrometheusHistory.identity(samples[0].labels) == PrometheusHistory.identity(timestamp))
    }

    @Test(
        "an answer that is not what was asked for is refused, naming the server and what is wrong",
        arguments: [
            ("", "is not a JSON object"), ("[1,2]", "is not a JSON object"),
            (#"{"status":"error","errorType":"bad_data","error":"parse error"}"#, "says error: parse error"),
            (#"{"status":"success","data":{"resultType":"matrix","result":[]}}"#, "is not an instant vector"),
            (
                #"{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"NaN"]}]}}"#,
                "malformed sample at result[0]"
            ),
            (#"{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":1},"value":[1,"2"]}]}}"#, "malformed sample"),
            (#"{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1]}]}}"#, "malformed sample"),
        ])
    func refused(answer: String, reason: String) {
        #expect(throws: HistoryError.self) { try PrometheusHistory.parse(Data(answer.utf8), server: server) }
        do {
            _ = try PrometheusHistory.parse(Data(answer.utf8), server: server)
        } catch {
            #expect(error.description.contains("--prometheus '\(server)'"), "\(error)")
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    @Test("a URL or a range that cannot be asked is refused before any query")
    func badInputs() {
        for (url, range, reason) in [
            ("127.0.0.1:9090", "30d", "give the server's URL"), (server, "30 days", "is not a PromQL duration"),
            (server, "1h; rm -rf /", "is not a PromQL duration"),
        ] {
            do {
                _ = try PrometheusHistory.load(server: url, range: range)
                Issue.record("\(url) \(range) was accepted")
            } catch {
                #expect(error.description.contains(reason), "\(error)")
            }
        }
    }
}
