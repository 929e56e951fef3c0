import ArgumentParser
import Foundation
import LaunchBenchmark
import LaunchSupport

/// `launchprof explain RESULTS.json [--trace TRACE] [--target NAME] [--json FILE]`:
/// insights for each launch of a results file.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say where each launch of a results file spends its time, why, and what to do about it.",
        discussion: """
            RESULTS is a file written by 'launchprof run --export-json'. Each finding is a measured number, a cause \
            and an action: pre-main and shared libraries, time off CPU, a cold launch's reads from disk and, with a \
            trace of the program ('launchprof record'), the critical path to launch complete on whatever threads it ran \
            and the work off it. Without a trace, it gives no advice that needs one. \
            Exits with status 2 when an input cannot be read.
            """)

    @Argument(help: "The results JSON written by 'launchprof run --export-json'.")
    var results: String

    @Option(help: ArgumentHelp("A trace of the program ('launchprof record'), for the critical path.", valueName: "trace"))
    var trace: String?

    @Option(help: ArgumentHelp("Explain only this target (default: every one).", valueName: "name"))
    var target: String?

    @Option(help: ArgumentHelp("Also write the insights as JSON to this file.", valueName: "file"))
    var json: String?

    @Flag(help: "Run each target's command once more with LD_DEBUG=statistics, for the dynamic loader's own numbers.")
    var loader = false

    func run() throws {
        let document: ResultsDocument
        let traceFile: Trace?
        do {
            document = try ResultsDocument.load(from: results)
            traceFile = try trace.map { path throws(TraceReadError) in try TraceReader.read(path: path) }
        } catch {
            throw Output.fail("\(error)", status: .usage)
        }
        let chosen = document.results.filter { target == nil || $0.target.name == target }
        guard !chosen.isEmpty else {
            let names = document.results.map(\.target.name)
            throw Output.fail(
                "'\(results)' has no target named '\(target ?? "")' (targets: \(names.joined(separator: ", ")))", status: .usage)
        }
        var all: [TargetInsights] = []
        for result in chosen {
            let statistics = loader ? LoaderStatistics.measure(result.target) : nil
            let insights = LaunchInsights.insights(for: result, trace: traceFile, loader: statistics)
            print("\(result.label)")
            if insights.isEmpty { print("  \(LaunchInsights.nothingStandsOut(in: result))") }
            for insight in insights {
                print("  • \(insight.area.rawValue): \(insight.finding)")
                print("    why: \(insight.cause)")
                print("    do:  \(insight.action)")
            }
            if traceFile == nil, result.runs.contains(where: \.exit.isSuccess) { print("  (\(LaunchInsights.withoutTrace))") }
            all.append(TargetInsights(target: result.target.name, mode: result.mode.rawValue, insights: insights))
        }
        if let json, !json.isEmpty {
            do {
                try JSONDocument.write(all, to: json)
            } catch {
                throw Output.fail("cannot write '\(json)': \(error)", status: .usage)
            }
        }
    }
}
