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
            A results file may be a CI artifact anyone wrote: explain never runs the command it stores unless \
            --rerun-command asks for it, and then prints it first. \
            Exits with status 2 when an input cannot be read, or when --loader finds no loader data and may not measure it.
            """)

    @Argument(help: "The results JSON written by 'launchprof run --export-json'.")
    var results: String

    @Option(help: ArgumentHelp("A trace of the program ('launchprof record'), for the critical path.", valueName: "trace"))
    var trace: String?

    @Option(help: ArgumentHelp("Explain only this target (default: every one but launchprof's calibration workload).", valueName: "name"))
    var target: String?

    @Option(help: ArgumentHelp("Also write the insights as JSON to this file.", valueName: "file"))
    var json: String?

    @Flag(
        help: ArgumentHelp(
            "The dynamic loader's time on each shared library (map, relocate, init), warm and cold, from the results "
                + "('run --loader') or from launches made now with liblaunchprof-audit.so; and its own statistics (LD_DEBUG=statistics)."))
    var loader = false

    @Option(help: ArgumentHelp("Launches per mode for the loader's time by library (with --loader --rerun-command).", valueName: "n"))
    var loaderRuns = 5

    @Flag(
        help: ArgumentHelp(
            "With --loader: launch the command the results file stores (its arguments, environment, directory and --shell), "
                + "printed first, for what the file lacks: LD_DEBUG=statistics and the loader's time by library of a mode "
                + "'run --loader' did not measure. Without it, nothing a results file says is ever executed."))
    var rerunCommand = false

    func validate() throws {
        guard (1...1000).contains(loaderRuns) else { throw ValidationError("--loader-runs must be from 1 to 1000, not \(loaderRuns)") }
        if rerunCommand, !loader { throw ValidationError("--rerun-command launches the stored command for --loader; give --loader too") }
    }

    func run() throws {
        let document: ResultsDocument
        let traceFile: Trace?
        do {
            document = try ResultsDocument.load(from: results)
            traceFile = try trace.map { path throws(TraceReadError) in try TraceReader.read(path: path) }
        } catch {
            throw Output.fail("\(error)", status: .usage)
        }
        // The calibration workload is launchprof's own yardstick of the
        // machine, not a program to explain, unless it is asked for by name.
        let chosen = document.results.filter { result in
            target.map { result.target.name == $0 } ?? (result.target.name != Calibration.targetName)
        }
        guard !chosen.isEmpty else {
            let names = document.results.map(\.target.name)
            let wanted = target.map { "no target named '\($0)'" } ?? "no target but launchprof's calibration workload"
            throw Output.fail("'\(results)' has \(wanted) (targets: \(names.joined(separator: ", ")))", status: .usage)
        }
        // A trace is of one program: it explains that target's results, never
        // the calibration workload's nor another target's.
        let traced = Set(chosen.map(\.target.name).filter { $0 != Calibration.targetName })
        if traceFile != nil, traced.count > 1 {
            throw Output.fail(
                "--trace '\(trace ?? "")' is a trace of one program, and '\(results)' has \(traced.count) targets: "
                    + "name the traced one with --target (targets: \(traced.sorted().joined(separator: ", ")))",
                status: .usage)
        }
        if loader, !rerunCommand, !chosen.contains(where: { $0.loader != nil }) {
            throw Output.fail(Self.noLoaderData(in: results, chosen: chosen), status: .usage)
        }
        // The command's one spawner, for every launch --rerun-command makes;
        // its process starts only if one is made.
        let spawner = Spawner()
        var all: [TargetInsights] = []
        var tabled = Set<String>()
        var announced = Set<String>()
        for result in chosen {
            if rerunCommand, announced.insert(result.target.name).inserted { announce(result.target) }
            let statistics = rerunCommand ? LoaderStatistics.measure(result.target, spawner: spawner) : nil
            let resultTrace = traced.contains(result.target.name) ? traceFile : nil
            let insights = LaunchInsights.insights(for: result, trace: resultTrace, loader: statistics)
            Output.line("\(result.label)")
            if insights.isEmpty { Output.line("  \(LaunchInsights.nothingStandsOut(in: result))") }
            for insight in insights {
                Output.line("  • \(insight.area.rawValue): \(insight.finding)")
                Output.line("    why: \(insight.cause)")
                Output.line("    do:  \(insight.action)")
            }
            if resultTrace == nil, result.runs.contains(where: \.exit.isSuccess) { Output.line("  (\(LaunchInsights.withoutTrace))") }
            if loader, tabled.insert(result.target.name).inserted {
                printLoaderTable(for: result, in: document, spawner: spawner)
            }
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

    /// Why `--loader` stops before anything runs: the file has no loader data,
    /// how to get it, and the command `--rerun-command` would launch.
    static func noLoaderData(in results: String, chosen: [BenchmarkResult]) -> String {
        var commands: [String] = []
        for result in chosen where !commands.contains(result.target.shellLine) { commands.append(result.target.shellLine) }
        return "'\(results)' has no loader data (it was not written by 'launchprof run --loader N'), and explain runs "
            + "nothing a results file says unless asked. Measure it with 'launchprof run --loader 5 --export-json FILE -- PROGRAM', "
            + "or let explain launch the command the file stores with --loader --rerun-command (it is printed first): "
            + commands.joined(separator: "; ")
    }

    /// Says, before the first launch, what `--rerun-command` runs for `target`.
    private func announce(_ target: LaunchTarget) {
        Output.note(
            "--rerun-command: launching the command '\(results)' stores for '\(TerminalText.sanitized(target.name))' "
                + "(once with LD_DEBUG=statistics, and \(loaderRuns) time(s) per mode the file has no loader data for): "
                + target.shellLine)
    }

    /// The loader's time by library for `result`'s target, warm and cold: from
    /// the document where `run --loader` measured it, else, with
    /// `--rerun-command`, measured now, else named as missing.
    private func printLoaderTable(for result: BenchmarkResult, in document: ResultsDocument, spawner: Spawner) {
        let stored = document.results.filter { $0.target.name == result.target.name }
        var profiles: [LaunchMode: LoaderProfile] = [:]
        var problems: [String] = []
        for mode in [LaunchMode.warm, .cold] {
            if let known = stored.first(where: { $0.mode == mode })?.loader {
                profiles[mode] = known
                continue
            }
            guard rerunCommand else {
                problems.append(
                    "\(mode.rawValue): not in '\(results)' ('run --loader N --mode \(mode.rawValue)' measures it; "
                        + "--rerun-command launches the stored command to measure it now)")
                continue
            }
            do {
                let audit = LoaderAudit(library: try LoaderAudit.locateLibrary(), launches: loaderRuns, spawner: spawner)
                profiles[mode] = try audit.profile(result.target, mode: mode)
            } catch {
                problems.append("\(mode.rawValue): \(error)")
            }
        }
        Output.line("  the dynamic loader's time by library (\(result.target.name)):")
        if profiles.isEmpty {
            for problem in problems { Output.line("    \(problem)") }
            return
        }
        for line in LoaderTable.lines(warm: profiles[.warm], cold: profiles[.cold]) { Output.line("    \(line)") }
        for problem in problems { Output.line("    \(problem)") }
    }
}
