import ArgumentParser
import Foundation
import LaunchBenchmark

/// `launchprof report RESULTS.json [--baseline BASE.json] [--trace [NAME=]TRACE …] -o report.html [--svg-dir DIR]`,
/// or over many results (files or directories of them) a fleet report.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a self-contained HTML report (timelines, distributions, resources) of launch results.",
        discussion: """
            RESULTS is a file written by 'launchprof run --export-json'. The report is one HTML file \
            with inline SVG charts and CSS, nothing loaded from elsewhere. A trace from 'launchprof record' \
            adds the program's threads, intervals, deferred and prewarm tasks to its target's timeline. \
            Given several results files, or a directory of them (CI artifacts from many commits and runners, \
            searched recursively; other JSON there is skipped and listed), it writes a fleet report instead: \
            each target's median time to ready over runs, per machine, with failed budgets and regressions marked. \
            Exits with status 2 when an input cannot be read or an output cannot be written.
            """)

    @Argument(help: "The results JSON written by 'launchprof run --export-json'; several, or directories, for a fleet report.")
    var results: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the HTML report to this file.", valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Earlier results to compare with and draw beside: a saved baseline's name or a results JSON file.", valueName: "name"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "A trace of a target ('launchprof record'), matched by file or program name, or NAME=PATH (repeatable).",
            valueName: "trace"))
    var trace: [String] = []

    @Option(help: ArgumentHelp("Also write each chart as an SVG file, and summary.md linking them, to this directory.", valueName: "dir"))
    var svgDir: String?

    func validate() throws {
        guard output != nil || svgDir != nil else {
            throw ValidationError("give the report's file with -o FILE (and/or --svg-dir DIR)")
        }
        guard !results.isEmpty else { throw ValidationError("give a results file (or several, or a directory, for a fleet report)") }
        if isFleet, baseline != nil || !trace.isEmpty {
            throw ValidationError("--baseline and --trace apply to a report of one results file, not to a fleet report")
        }
    }

    /// Several results, or a directory of them.
    private var isFleet: Bool {
        var isDirectory: ObjCBool = false
        return results.count > 1 || (FileManager.default.fileExists(atPath: results[0], isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    func run() throws {
        if isFleet { return try runFleet() }
        let results = results[0]
        let report: HTMLReport
        do {
            let document = try ResultsDocument.load(from: results)
            let baselineDocument = try baseline.map { name throws(BaselineError) in try BaselineStore().load(name) }
            let traces = try ReportTraces.assign(trace, to: document)
            let comparison = baselineDocument.map { document.comparison(against: $0, named: baseline ?? "baseline") }
            // The run wrote its differential flame graphs; this later
            // command draws them from those files.
            let saved = HTMLReport.savedDifferentialFlameGraphs(of: comparison ?? document.comparison)
            for problem in saved.problems { Output.note("\(problem): named, not drawn", command: "report") }
            report = HTMLReport(
                document: document, baseline: baselineDocument, comparison: comparison, traces: traces,
                differentialFlameGraphs: saved.flameGraphs, source: results)
        } catch {
            throw fail("\(error)")
        }
        do {
            if let output {
                try report.write(to: output)
                Output.note("wrote \(output)", command: "report")
            }
            if let svgDir {
                let files = try report.writeCharts(to: svgDir)
                Output.note("wrote \(files.count) files to \(svgDir)", command: "report")
            }
        } catch {
            throw fail("\(error)")
        }
    }

    /// A fleet report over every results file given or found.
    private func runFleet() throws {
        let report: FleetReport
        do {
            report = FleetReport(history: try FleetHistory.load(results))
        } catch {
            throw fail(error.description)
        }
        for skipped in report.history.skipped {
            Output.note("skipped \(skipped.path): \(skipped.reason)", command: "report")
        }
        do {
            if let output {
                try report.write(to: output)
                Output.note("wrote \(output) (\(report.history.entries.count) results files)", command: "report")
            }
            if let svgDir {
                let files = try report.writeCharts(to: svgDir)
                Output.note("wrote \(files.count) files to \(svgDir)", command: "report")
            }
        } catch {
            throw fail("\(error)")
        }
    }

    /// Prints `message` and returns the exit status for bad input.
    private func fail(_ message: String) -> ExitCode {
        Output.note("\(message)", command: "report")
        return ExitCode(LaunchExitStatus.usage)
    }
}
