import Foundation
import LaunchEngine

/// GitHub Actions workflow commands (`::error` / `::warning`) for budgets
/// exceeded, regressions, failed launches and warnings, so they show on the
/// pull request. Printed by the CLI when `GITHUB_ACTIONS=true`.
package enum GitHubAnnotations {
    /// `::error` and `::notice` workflow commands for `document`'s failed budgets, regressions and failed launches.
    package static func lines(_ document: ResultsDocument) -> [String] {
        var lines: [String] = []
        for result in document.results {
            let failed = result.runs.filter { !$0.exit.isSuccess }
            if let first = failed.first {
                lines.append(
                    command(
                        "error", title: "launchprof: \(result.label) failed to launch",
                        "\(failed.count) of \(result.runs.count) runs failed; run \(first.index + 1): \(first.exit)"))
            }
        }
        for budget in document.budgets ?? [] where !budget.passed {
            lines.append(command("error", title: "launchprof budget exceeded: \(budget.title)", budget.message, source: budget.source))
        }
        for change in document.comparison?.regressions ?? [] {
            var message = change.summary
            if change.metric == Metric.wallToReady.key,
                let why = document.comparison?.attribution(of: change.target, change.mode)?.summaryLines, !why.isEmpty
            {
                message += "; why: " + why.joined(separator: "; ")
            }
            lines.append(command("error", title: "launchprof regression: \(change.title)", message))
        }
        for warning in document.comparison?.warnings ?? [] {
            lines.append(command("warning", title: "launchprof baseline", warning.message))
        }
        for result in document.results {
            for warning in result.warnings { lines.append(command("warning", title: "launchprof: \(result.label)", warning.message)) }
        }
        return lines
    }

    /// `::error file=launchprof.yml,line=12,title=…::message`.
    static func command(_ kind: String, title: String, _ message: String, source: String? = nil) -> String {
        var properties: [String] = []
        if let source, let colon = source.lastIndex(of: ":"), let line = Int(source[source.index(after: colon)...]) {
            properties.append("file=\(property(String(source[..<colon])))")
            properties.append("line=\(line)")
        }
        properties.append("title=\(property(title))")
        return "::\(kind) \(properties.joined(separator: ","))::\(data(message))"
    }

    /// Escaping of the runner's toolkit (`escapeData`, `escapeProperty`).
    package static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// `text` escaped for a workflow command's property.
    package static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
