import ArgumentParser
import Foundation
import LaunchBenchmark

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
    @OptionGroup var gate: GateOptions

    @Argument(help: ArgumentHelp(
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
        let plan = try self.plan(config: config)
        let reference = options.reference ?? config?.reference
        if let reference, !plan.targets.contains(where: { $0.name == reference }) {
            throw usage("--reference '\(reference)' names no target; use a command as written, its --command-name or a target name")
        }
        if !options.measure.isEmpty, let target = plan.targets.first(where: { $0.ready == .exit }) {
            throw usage("--measure times a program that stays up after ready, but '\(target.name)' is ready at exit: "
                + "add --ready tracer, notify, port:N or output:REGEX")
        }
        if (options.dropCaches || !options.evict.isEmpty), !plan.allModes.contains(.cold) {
            throw usage("--evict and --drop-caches only apply to cold runs; add --mode cold")
        }
        for target in plan.targets {
            do {
                _ = try Spawner().resolveProgram(of: target)
            } catch {
                throw failure("target '\(target.name)': \(error)")
            }
        }
        // Read the baseline before measuring: a typo should not cost a whole benchmark.
        let baseline = try options.baseline.map { name in
            do {
                return try BaselineStore().load(name)
            } catch {
                throw usage("\(error)")
            }
        }
        let comparer = try gate.comparer(config: config)
        if let directory = options.outputDir {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        if options.profile { try RunProfiles(options: options, plan: plan).prepare() }

        let outcome = try benchmark(plan)
        var document = ResultsDocument.measuredNow(
            commandLine: CommandLine.arguments, reference: reference, results: outcome.results)
        if let budgets = config?.budgets, !budgets.isEmpty {
            document.budgets = BudgetEvaluator(budgets: budgets).evaluate(outcome.results)
        }
        if let baseline, let name = options.baseline {
            document.comparison = comparer.compare(baseline: baseline, current: document, baselineName: name)
        }
        try Output.printReport(document)
        // Profiled once measuring is done and reported (never while
        // measuring), before the files: the JSON results list the profiles
        // and the HTML report draws their flame graphs.
        var profiling: RunProfiles.Outcome?
        var profilingError: (any Error)?
        if options.profile, outcome.failure == nil, !outcome.interrupted {
            do {
                profiling = try RunProfiles(options: options, plan: plan).run()
            } catch {
                profilingError = error  // reported; the results are still written
            }
        }
        let measured = document
        if let profiling, !profiling.profiles.isEmpty { document.profiles = profiling.records }
        try Output.export(document, markdown: options.exportMarkdown, json: options.exportJson, junit: gate.exportJunit)
        if let path = options.report {
            do {
                try HTMLReport(
                    document: document, baseline: baseline, baselineName: options.baseline,
                    profiles: profiling?.byTarget ?? [:]
                ).write(to: path)
            } catch {
                Output.error("\(error)")
                throw ExitCode(2)
            }
        }

        if let failure = outcome.failure { throw self.failure("\(failure)") }
        if outcome.interrupted {
            Output.error("interrupted; reported the runs measured so far")
            throw ExitCode(130)
        }
        if let name = options.saveBaseline {
            do {
                // The measurements only: profiles are files of this run.
                let path = try BaselineStore().save(measured, as: name)
                Output.note("saved baseline '\(name)' to \(path)")
            } catch {
                throw failure(error.description)
            }
        }
        // Ctrl-C wins; a target that could not be profiled (3) does not
        // hide a budget exceeded or a regression (1).
        if profiling?.interrupted == true { throw ExitCode(130) }
        let status = GateVerdict(document).exitStatus
        if status == 0, let profilingError { throw profilingError }
        if status == 0, let failed = profiling?.failed, !failed.isEmpty { throw ExitCode(3) }
        if status != 0 { throw ExitCode(status) }
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
            throw usage(error.description)
        }
    }

    private func plan(config: LaunchConfig?) throws -> BenchmarkPlan {
        let overrides = try options.overrides()
        guard let config else {
            return BenchmarkPlan(
                targets: try commandTargets(), modes: overrides.modes ?? [.warm], warmup: overrides.warmup ?? 3,
                stopping: overrides.stopping ?? StoppingRule())
        }
        do {
            return try config.plan(selecting: options.target, overrides: overrides)
        } catch {
            throw usage(error.description)
        }
    }

    private func commandTargets() throws -> [LaunchTarget] {
        var builder = TargetBuilder()
        let (quoted, argv) = Self.splitAtTerminator(commands, commandLine: CommandLine.arguments)
        builder.commands = quoted
        builder.argv = argv
        builder.names = options.commandName
        builder.useShell = options.shell
        builder.ready = try options.readyProbe() ?? .exit
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

    private func benchmark(_ plan: BenchmarkPlan) throws -> BenchmarkOutcome {
        let interrupt = try InterruptMonitor()
        defer { interrupt.stop() }
        let executor = ProcessExecutor(
            timeout: try options.timeoutDuration(), grace: try options.graceDuration(),
            output: options.outputPlan, interrupt: interrupt, measure: options.measure)
        let coldCache = plan.allModes.contains(.cold) ? try ColdCache(dropAllCaches: options.dropCaches) : nil
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
        Output.error(message)
        return ExitCode(3)
    }

    /// Prints `message` and exits with 2, "bad usage or config".
    private func usage(_ message: String) -> ExitCode {
        Output.error(message)
        return ExitCode(2)
    }
}
