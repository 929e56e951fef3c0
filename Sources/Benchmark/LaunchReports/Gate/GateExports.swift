import Foundation
import LaunchEngine
import LaunchSupport

/// A gate's verdict in the CI formats `run` has: Markdown, JUnit XML and
/// GitHub Actions workflow commands.
package enum GateExports {
    /// A Markdown section for a job summary or a pull-request comment.
    package static func markdown(_ document: GateDocument) -> String {
        var lines = ["## launchprof gate: \(document.verdict?.rawValue ?? "no verdict")", "", document.summary, ""]
        lines.append("| | base | head |")
        lines.append("|---|---|---|")
        lines.append("| command | `\(document.base)` | `\(document.head)` |")
        if let base = document.baseMedian, let head = document.headMedian {
            lines.append("| median time to ready | \(HumanUnits.duration(base)) | \(HumanUnits.duration(head)) |")
        }
        lines.append("| measured runs | \(document.baseRuns.count) | \(document.headRuns.count) |")
        if let floor = document.noiseFloor {
            lines.append("")
            lines.append(
                "Noise floor (base against itself): \(GateReport.percent(floor.change)) "
                    + "[\(GateReport.percent(floor.low)), \(GateReport.percent(floor.high))]; minimum detectable effect "
                    + "\(GateReport.percent(floor.minimumDetectableEffect, signed: false)).")
        }
        if let resolve = GateReport.resolving(document) {
            lines += ["", resolve.prefix(1).uppercased() + resolve.dropFirst() + "."]
        }
        if let why = document.why {
            lines += ["", "### Why the head is slower", "", "From \(GateReport.whySource(why)).", ""]
            if let attribution = why.attribution {
                lines += MarkdownExporter().why(attribution)
            } else {
                lines.append("No attribution: a side has no successful run.")
            }
            lines += why.notes.map { "- note: \(xml($0))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One test case, failed when the head regressed or a run failed,
    /// skipped when inconclusive.
    package static func junit(_ document: GateDocument) -> String {
        let name = xml("launch time: \(document.head) against \(document.base)")
        var body: String
        switch document.verdict {
        case .regressed?: body = "<failure message=\"\(xml(document.summary))\"/>"
        case .inconclusive?: body = "<skipped message=\"\(xml(document.summary))\"/>"
        case nil: body = "<error message=\"\(xml(document.summary))\"/>"
        default: body = "<system-out>\(xml(document.summary))</system-out>"
        }
        let failures = document.verdict == .regressed ? 1 : 0
        let errors = document.verdict == nil ? 1 : 0
        let skipped = document.verdict == .inconclusive ? 1 : 0
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="launchprof gate" tests="1" failures="\(failures)" errors="\(errors)" skipped="\(skipped)">
              <testsuite name="launchprof gate" tests="1" failures="\(failures)" errors="\(errors)" skipped="\(skipped)" time="\(document.elapsed)">
                <testcase classname="launchprof.gate" name="\(name)" time="\(document.elapsed)">\(body)</testcase>
              </testsuite>
            </testsuites>

            """
    }

    /// `::error` for a regression (with its Why) or a failed run,
    /// `::warning` when inconclusive, `::notice` otherwise.
    package static func annotations(_ document: GateDocument) -> [String] {
        let kind: String
        switch document.verdict {
        case .regressed?, nil: kind = "error"
        case .inconclusive?: kind = "warning"
        default: kind = "notice"
        }
        let title = "launchprof gate: \(document.verdict?.rawValue ?? "no verdict")"
        // A regression's Why under its verdict, an inconclusive gate's
        // "to decide": the annotation is what a pull request shows.
        let resolve = GateReport.resolving(document).map { [$0] } ?? []
        let message = ([document.summary] + (document.why?.attribution?.summaryLines ?? []) + resolve).joined(separator: "\n")
        return ["::\(kind) title=\(GitHubAnnotations.property(title))::\(GitHubAnnotations.data(message))"]
    }

    private static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
