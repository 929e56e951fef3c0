import ArgumentParser
import Foundation
import LaunchBenchmark
import LaunchSupport

/// `launchprof run`: cold and warm launch benchmarks of real executables,
/// with budgets and baselines for CI.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Benchmark how long executables take to launch, cold and warm, to exit or to ready.",
        discussion: """
            Commands are given quoted ('cmd1 a' 'cmd2 b', split like a shell would but never run \
            by one unless --shell) or as one argv-exact command after '--'; or, with no command, \
            the targets of ./launchprof.yml (or --config FILE) are run and their budgets checked. \
            Several commands and modes are interleaved run by run. Exit status: 0 success (every \
            budget met, no regression), 1 a budget exceeded or a regression, 2 bad usage or config, \
            3 a target failed to launch (crash, timeout, non-zero exit), 130 interrupted.
            """)

    @OptionGroup var options: RunOptions
    @OptionGroup var regression: RegressionOptions

    @Argument(
        help: ArgumentHelp(
            "Commands to benchmark, each one quoted string; or, after '--', one command passed as argv exactly.",
            valueName: "command"))
    var commands: [String] = []

    mutating func validate() throws {
        if configPath != nil {
            if !commands.isEmpty { throw ValidationError("give commands or a config file's targets, not both") }
            if !options.commandName.isEmpty { throw ValidationError("--command-name names commands; a config file names its targets") }
            if options.shell { throw ValidationError("--shell applies to quoted commands, not to a config file's argv lists") }
        } else {
            if !options.target.isEmpty { throw ValidationError("--target selects targets of a config file; there is none") }
            _ = try commandTargets()
        }
    }

    func run() throws {
        let config = try readConfig()
        let labels: MetricLabels
        let metrics: MetricsExport?
        do {
            labels = try MetricLabels.resolve(flags: options.label, configured: config?.push?.labels)
            metrics = try MetricsExport.resolve(
                gatewayFlag: options.pushGateway, file: options.exportOpenmetrics, config: config?.push, labels: labels)
        } catch let error as MetricLabelError {
            throw Output.fail(error.description, status: .usage)
        } catch {
            throw Output.fail("\(error)", status: .usage)
        }
        var files = ResultsFiles(
            json: options.exportJson, markdown: options.exportMarkdown, junit: regression.exportJunit, html: options.report)
        files.metrics = metrics
        let session = try self.session(config: config, labels: labels, results: files)
        let line = ProgressLine()
        let outcome: BenchmarkOutcome
        do {
            outcome = try session.runSynchronously { event in
                switch event {
                case .progress(let progress):
                    guard line.isEnabled else { return }
                    line.update(
                        ProgressLine.Status(
                            label: "\(progress.context.target.name) (\(progress.context.mode.rawValue))",
                            run: progress.context.isWarmup ? 0 : progress.measuredRuns, total: progress.plannedRuns,
                            median: progress.median))
                case .measured(let document):
                    line.clear()
                    Output.printReport(document)  // unbuffered: the measured report first, then the profiles
                case .profiling(let target, let launch, let total):
                    line.update(ProgressLine.Status(label: "\(target) (profile)", run: launch, total: total, median: nil))
                case .profiled(_, let summary):
                    line.clear()
                    Output.note(summary)
                case .note(let message):
                    line.clear()
                    Output.note(message)
                }
            }
        } catch {
            line.clear()
            throw Output.fail(error.message, status: error.status)
        }
        // Every file is written even when one cannot be; each failure is
        // named, and one makes the exit 2 unless the benchmark's own status
        // says more (a failed launch, a budget, an interrupt).
        var writeFailed = false
        do {
            let pushed = try outcome.write(files)
            if let gateway = metrics?.gateway, !pushed.isEmpty {
                Output.note("pushed \(pushed.count) group\(pushed.count == 1 ? "" : "s") to \(gateway.url) (job \(gateway.job))")
            }
        } catch {
            for failure in error.failures { Output.error(failure.description) }
            writeFailed = true
        }
        for problem in outcome.problems { Output.error(problem) }
        if outcome.document.comparison != nil { Output.note(Output.acrossTime) }
        if let path = outcome.savedBaseline, let name = options.saveBaseline {
            Output.note("saved baseline '\(name)' to \(path)")
        }
        if outcome.status != .success { throw ExitCode(outcome.status) }
        if writeFailed { throw ExitCode(LaunchExitStatus.usage) }
    }

    /// The benchmark the flags and the config file describe.
    private func session(config: LaunchConfig?, labels: MetricLabels, results: ResultsFiles) throws -> BenchmarkSession {
        var settings = try options.settings()
        settings.labels = labels
        settings.results = results
        regression.apply(to: &settings)
        do {
            var session: BenchmarkSession
            if let config {
                session = try BenchmarkSession(
                    config: config, selecting: options.target, overrides: try options.overrides(), settings: settings)
            } else {
                session = BenchmarkSession(
                    plan: BenchmarkPlan(targets: try commandTargets(), overrides: try options.overrides()), settings: settings)
            }
            session.settings.budgets += try options.budgets(for: session.plan.targets)
            return session
        } catch let error as BenchmarkSessionError {
            throw Output.fail(error.message, status: error.status)
        }
    }

    /// `--config`, or ./launchprof.yml when no command is given.
    private var configPath: String? {
        if let path = options.config { return path }
        if commands.isEmpty, FileManager.default.fileExists(atPath: LaunchConfig.defaultFileName) {
            return LaunchConfig.defaultFileName
        }
        return nil
    }

    private func readConfig() throws -> LaunchConfig? {
        guard let path = configPath else { return nil }
        do {
            return try ConfigReader.read(path: path)
        } catch {
            throw Output.fail(error.description, status: .usage)
        }
    }

    private func commandTargets() throws -> [LaunchTarget] {
        var builder = TargetBuilder()
        let (quoted, argv) = Self.splitAtTerminator(commands, commandLine: CommandLine.arguments)
        // The bytes of each, as the kernel passed them (not the decoded text).
        let raw = RawCommandLine.current
        builder.commands = raw.words(matching: quoted, before: CommandLine.arguments.firstIndex(of: "--"))
        builder.argv = raw.suffix(matching: argv)
        builder.names = options.commandName
        builder.useShell = options.shell
        builder.ready = options.ready ?? .exit
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
}
