import ArgumentParser
import Foundation
import LaunchProfHarness

/// `launchprof run`: cold and warm launch benchmarks of real executables.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Benchmark how long executables take to launch, cold and warm, to exit or to ready.",
        discussion: """
            Commands are given quoted ('cmd1 a' 'cmd2 b', split like a shell would but never run \
            by one unless --shell) or as one argv-exact command after '--'. Several commands and \
            modes are interleaved run by run. Exit status: 0 success, 2 bad usage, 3 a target \
            failed to launch (crash, timeout, non-zero exit), 130 interrupted.
            """)

    @OptionGroup var options: RunOptions

    @Argument(help: ArgumentHelp(
        "Commands to benchmark, each one quoted string; or, after '--', one command passed as argv exactly.",
        valueName: "command"))
    var commands: [String] = []

    mutating func validate() throws {
        _ = try targets()
        if let reference = options.reference, try !targets().contains(where: { $0.name == reference }) {
            throw ValidationError("--reference '\(reference)' names no command; use a command as written or its --command-name")
        }
    }

    func run() throws {
        let targets = try targets()
        for target in targets {
            do {
                _ = try Spawner().resolveProgram(of: target)
            } catch {
                throw failure("target '\(target.name)': \(error)")
            }
        }
        if let directory = options.outputDir {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let outcome = try benchmark(targets)
        let document = ResultsDocument(
            toolVersion: launchprofVersion, date: ISO8601DateFormatter().string(from: Date()),
            commandLine: CommandLine.arguments, machine: .current(), reference: options.reference,
            results: outcome.results)
        print(try TerminalReport(colour: isatty(STDOUT_FILENO) == 1).export(document), terminator: "")
        if let path = options.exportJson { try JSONExporter().write(document, to: path) }
        if let path = options.exportMarkdown { try MarkdownExporter().write(document, to: path) }
        if let failure = outcome.failure { throw self.failure("\(failure)") }
        if outcome.interrupted {
            FileHandle.standardError.write(Data("launchprof: interrupted; reported the runs measured so far\n".utf8))
            throw ExitCode(130)
        }
    }

    private func targets() throws -> [LaunchTarget] {
        var builder = TargetBuilder()
        let (quoted, argv) = Self.splitAtTerminator(commands, commandLine: CommandLine.arguments)
        builder.commands = quoted
        builder.argv = argv
        builder.names = options.commandName
        builder.useShell = options.shell
        builder.ready = try ReadyProbe(parsing: options.ready)
        builder.evictPaths = options.evict
        do {
            return try builder.targets()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Separates quoted commands from an argv given after `--`.
    ///
    /// swift-argument-parser cannot have a positional array before a
    /// post-terminator one, so both land in `commands`, post-terminator values
    /// last; the words after the first `--` of the real command line say how
    /// many of them there are.
    static func splitAtTerminator(_ values: [String], commandLine: [String]) -> (quoted: [String], argv: [String]) {
        guard let terminator = commandLine.firstIndex(of: "--") else { return (values, []) }
        let count = min(values.count, commandLine.count - terminator - 1)
        return (Array(values.dropLast(count)), Array(values.suffix(count)))
    }

    private func benchmark(_ targets: [LaunchTarget]) throws -> BenchmarkOutcome {
        let interrupt = try InterruptMonitor()
        defer { interrupt.stop() }
        let executor = ProcessExecutor(
            timeout: RunOptions.seconds(options.timeout), grace: RunOptions.seconds(options.grace),
            output: options.outputPlan, interrupt: interrupt, measure: options.measure)
        let coldCache = options.modes.contains(.cold) ? try ColdCache(dropAllCaches: options.dropCaches) : nil
        let plan = BenchmarkPlan(targets: targets, modes: options.modes, warmup: options.warmup, stopping: options.stopping)
        let line = ProgressLine()
        var runner = BenchmarkRunner(plan: plan, executor: executor, coldCache: coldCache, interrupt: interrupt)
        if line.isEnabled {
            runner.progress = {
                line.update(ProgressLine.Status(
                    label: "\($0.context.target.name) (\($0.context.mode.rawValue))",
                    run: $0.context.isWarmup ? 0 : $0.measuredRuns, total: $0.plannedRuns, median: $0.median))
            }
        }
        let outcome = runner.run()
        line.clear()
        return outcome
    }

    /// Prints `message` and exits with 3, "a target failed to launch".
    private func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("launchprof: \(message)\n".utf8))
        return ExitCode(3)
    }
}
