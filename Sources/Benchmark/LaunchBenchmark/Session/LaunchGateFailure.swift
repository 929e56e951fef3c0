import LaunchEngine
import LaunchReports
import LaunchSupport

/// A benchmark that did not pass: a budget exceeded, a regression, a target
/// that failed to launch or an interrupt. Its description is the CLI's own
/// lines for it, so a failing test says what `launchprof run` would.
public struct LaunchGateFailure: Error, Sendable, CustomStringConvertible {
    /// What the benchmark ends with: `LaunchExitStatus.gateFailed`, `LaunchExitStatus.launchFailed` or `LaunchExitStatus.interrupted`.
    public var status: LaunchExitStatus
    /// The results, with the budgets checked and the comparison.
    public var document: ResultsDocument
    /// The failed launch, interrupt or profiling error behind ``status``, one line each.
    public var problems: [String]

    public var description: String {
        var blocks = GateReportLines(style: ANSIStyle(enabled: false)).lines(document)
        blocks += problems
        if blocks.isEmpty { blocks.append(status.description) }
        return blocks.joined(separator: "\n")
    }
}
