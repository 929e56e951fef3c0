import ArgumentParser
import Foundation
import LaunchBenchmark
import LaunchProfFiles
import LaunchSupport

/// Everything the CLI says goes through here, and from here through
/// `StandardStream`, the one writer that never traps: a standard output or
/// error that cannot be written (`2>/dev/full`, a full disk, a pipe whose
/// reader left) loses the text and changes nothing else, neither what is
/// done nor the exit status.
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
        standardOutput(TerminalReport.text(document, colour: ANSIStyle.wanted()))
        if ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" {
            standardOutput(GitHubAnnotations.lines(document).map { $0 + "\n" }.joined())
        }
    }

    /// Every export asked for: each is written even when another fails;
    /// one that could not be written exits with 2, every failure named.
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
    static func error(_ message: String) { note(message) }

    /// "launchprof: message" on standard error: progress or a note, which
    /// stays off standard output (the report, or what a pipe reads).
    static func note(_ message: String) { note(message, prefix: "launchprof: ") }

    /// "launchprof COMMAND: message" on standard error.
    static func note(_ message: String, command: String) { note(message, prefix: "launchprof \(command): ") }

    /// Each line of `message` after `prefix`, so that every line of a
    /// message of several (outputs that failed) says whose it is.
    private static func note(_ message: String, prefix: String) {
        standardError(message.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 + "\n" }.joined())
    }

    /// `text` and a line feed on standard output.
    static func line(_ text: String) { standardOutput(text + "\n") }

    /// `text` as it is on standard output.
    static func standardOutput(_ text: String) { StandardStream.output.write(text) }

    /// `text` as it is on standard error.
    static func standardError(_ text: String) { StandardStream.error.write(text) }
}

extension ExitCode {
    /// The exit of a command that ends with `status` (README: exit statuses).
    init(_ status: LaunchExitStatus) { self.init(status.rawValue) }
}
