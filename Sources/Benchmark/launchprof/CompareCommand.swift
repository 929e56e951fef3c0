import ArgumentParser
import Foundation
import LaunchBenchmark

/// `launchprof compare BASE.json NEW.json`: the regression test of two saved
/// results, without running anything.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two results files (from --export-json or --save-baseline) and fail on regressions.",
        discussion: """
            A metric regressed when its statistic is worse by more than the threshold and a \
            Mann–Whitney U test of the raw runs rejects "no difference" at the significance level. \
            With --config, the file's budgets are checked against NEW and their metrics compared too. \
            Exit status: 0 no regression and budgets met, 1 a regression or a budget exceeded, \
            2 bad usage or an unreadable file, 3 NEW holds a target that failed to launch.
            """)

    @Argument(help: "The baseline results (JSON).")
    var base: String

    @Argument(help: "The new results (JSON).")
    var new: String

    @Option(help: ArgumentHelp("Budgets and thresholds from this launchprof.yml.", valueName: "file"))
    var config: String?

    @OptionGroup var regression: RegressionOptions

    @Option(help: ArgumentHelp("Write the comparison as Markdown (for a pull-request comment).", valueName: "file"))
    var exportMarkdown: String?

    @Option(help: ArgumentHelp("Write NEW with the comparison as JSON to this file.", valueName: "file"))
    var exportJson: String?

    func run() throws {
        let baseline = try load(base)
        let current = try load(new)
        var settings = BenchmarkSettings()
        regression.apply(to: &settings)
        if let config {
            do {
                settings = settings.with(try ConfigReader.read(path: config))
            } catch {
                throw Output.fail(error.description, status: .usage)
            }
        }
        let compared = current.compared(with: baseline, named: base, settings: settings)
        try Output.report(compared, markdown: exportMarkdown, json: exportJson, junit: regression.exportJunit)
        Output.note(Output.acrossTime)
        let status = GateVerdict(compared).exitStatus
        if status != .success { throw ExitCode(status) }
    }

    private func load(_ path: String) throws -> ResultsDocument {
        do {
            return try ResultsDocument.load(from: path)
        } catch {
            throw Output.fail(error.description, status: .usage)
        }
    }
}
