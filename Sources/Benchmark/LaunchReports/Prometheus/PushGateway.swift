import Foundation
import LaunchEngine

/// A Prometheus Pushgateway that results are pushed to (`--push-gateway`),
/// the documented way for batch jobs to report to Prometheus.
///
/// Each target and mode is a group of its own, keyed by `job`, `target`,
/// `mode` and `machine`, and pushed with PUT: a push replaces that group's
/// series, so a target measured again on the same machine does not leave
/// stale ones beside the new. Label values in the path are base64url encoded
/// (`name@base64/…`), so a target named with a slash cannot break it.
/// The HTTP request is made by curl, run through launchprof's spawner with a
/// time limit; curl brings HTTPS, proxies (`https_proxy`) and `~/.netrc`.
package struct PushGateway: Sendable, Equatable {
    /// The gateway's base URL (`http://pushgateway:9091`, a path prefix allowed).
    package var url: String
    /// The `job` of every group.
    package var job: String
    /// How long one push may take.
    package var timeout: Duration

    /// A gateway at `url`; refuses a URL that is not http or https.
    package init(url: String, job: String = "launchprof", timeout: Duration = .seconds(30)) throws(PushError) {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            parsed.host != nil, parsed.query == nil, parsed.fragment == nil
        else { throw .badURL(url) }
        guard !job.isEmpty else { throw .badJob(job) }
        self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.job = job
        self.timeout = timeout
    }

    /// The URL of one target and mode's group.
    package func groupURL(target: String, mode: LaunchMode, machine: String) -> String {
        "\(url)/metrics/job@base64/\(Self.base64URL(job))/target@base64/\(Self.base64URL(target))"
            + "/mode/\(mode.rawValue)/machine@base64/\(Self.base64URL(machine))"
    }

    /// Pushes every target and mode of `document` as its own group, curl
    /// started through `spawner` (the command's; nil: one for the push);
    /// returns the URLs pushed to. Stops at the first push that fails.
    @discardableResult
    package func push(
        _ document: ResultsDocument, exposition: PrometheusExposition, spawner: Spawner? = nil
    ) throws(PushError) -> [String] {
        let spawner = spawner ?? Spawner()
        let machine = exposition.labels["machine"] ?? document.machine.hostname
        var pushed: [String] = []
        for group in exposition.groups(document) {
            let target = groupURL(target: group.target, mode: group.mode, machine: machine)
            try put(Data(group.text.utf8), to: target, spawner: spawner)
            pushed.append(target)
        }
        return pushed
    }

    func put(_ body: Data, to target: String, spawner: Spawner) throws(PushError) {
        let arguments = [
            "--silent", "--show-error", "--fail-with-body", "--max-time", String(Int(timeout.seconds.rounded(.up))),
            "--request", "PUT", "--header", "Content-Type: text/plain; version=0.0.4; charset=utf-8",
            "--data-binary", "@-", target,
        ]
        let tool: ToolProcess
        do {
            tool = try ToolProcess.run("curl", arguments: arguments, input: body, timeout: timeout + .seconds(5), spawner: spawner)
        } catch {
            throw .curl(url: target, reason: "\(error)")
        }
        guard tool.end == .exited(0) else {
            let said = (String(decoding: tool.errorOutput, as: UTF8.self) + " " + String(decoding: tool.output, as: UTF8.self))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let how =
                switch tool.end {
                case .exited(let code): "curl exited with \(code)"
                case .signaled(let signal): "curl was killed by signal \(signal)"
                case .timedOut: "no answer within \(Int(timeout.seconds)) s"
                }
            throw .failed(url: target, reason: said.isEmpty ? how : "\(how): \(said)")
        }
    }

    /// `text` in base64url (RFC 4648 §5), as the Pushgateway reads `@base64`
    /// label values; "=" for the empty string.
    static func base64URL(_ text: String) -> String {
        if text.isEmpty { return "=" }
        return Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}
