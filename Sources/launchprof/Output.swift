import ArgumentParser
import Foundation
import LaunchBenchmark
import LaunchSupport

/// Printing and exporting, shared by `run` and `compare`.
enum Output {
    /// The terminal report on standard output, then every export asked for,
    /// then GitHub Actions annotations when running there. An export that
    /// cannot be written exits with 2 (its path is bad input).
    static func report(_ document: ResultsDocument, markdown: String?, json: String?, junit: String?) throws {
        printReport(document)
        try export(document, markdown: markdown, json: json, junit: junit)
    }

    /// The terminal report on standard output, and GitHub Actions
    /// annotations when running there.
    static func printReport(_ document: ResultsDocument) {
        print(TerminalReport.text(document, colour: ANSIStyle.wanted()), terminator: "")
        if ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" {
            for line in GitHubAnnotations.lines(document) { print(line) }
        }
    }

    /// Every export asked for; one that cannot be written exits with 2.
    static func export(_ document: ResultsDocument, markdown: String?, json: String?, junit: String?) throws {
        do {
            try ResultsFiles(json: json, markdown: markdown, junit: junit).write(document)
        } catch {
            throw fail(error.description, status: .usage)
        }
    }

    /// Prints `message` and returns the exit that ends the command with `status`.
    static func fail(_ message: String, status: LaunchExitStatus) -> ExitCode {
        error(message)
        return ExitCode(status)
    }

    /// Said after a comparison with a baseline: its verdict crosses time.
    static let acrossTime =
        "this verdict compares with a baseline measured earlier, on a machine whose speed may have moved since: "
        + "for CI, 'launchprof gate' measures base and head side by side (docs/gate.md)"

    /// "launchprof: message" on standard error: an error.
    static func error(_ message: String) { standardError(message) }

    /// "launchprof: message" on standard error: progress or a note, which
    /// stays off standard output (the report, or what a pipe reads).
    static func note(_ message: String) { standardError(message) }

    private static func standardError(_ message: String) {
        FileHandle.standardError.write(Data("launchprof: \(message)\n".utf8))
    }
}

extension ExitCode {
    /// The exit of a command that ends with `status` (README: exit statuses).
    init(_ status: LaunchExitStatus) { self.init(status.rawValue) }
}
