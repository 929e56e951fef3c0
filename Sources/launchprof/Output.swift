import ArgumentParser
import Foundation
import LaunchProfHarness

/// Printing and exporting, shared by `run` and `compare`.
enum Output {
    /// The terminal report on standard output, then every export asked for,
    /// then GitHub Actions annotations when running there. An export that
    /// cannot be written exits with 2 (its path is bad input).
    static func report(_ document: ResultsDocument, markdown: String?, json: String?, junit: String?) throws {
        print(try TerminalReport(colour: ANSIStyle.wanted()).export(document), terminator: "")
        let exports: [(String?, any ResultsExporter)] = [(json, JSONExporter()), (markdown, MarkdownExporter()), (junit, JUnitExporter())]
        for case let (path?, exporter) in exports {
            do {
                try exporter.write(document, to: path)
            } catch {
                Output.error("\(error)")
                throw ExitCode(2)
            }
        }
        if ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" {
            for line in GitHubAnnotations.lines(document) { print(line) }
        }
    }

    /// "launchprof: message" on standard error.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("launchprof: \(message)\n".utf8))
    }

    static func note(_ message: String) { error(message) }
}
