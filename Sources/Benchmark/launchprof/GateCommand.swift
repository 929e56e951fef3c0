import ArgumentParser
import Foundation
import LaunchBenchmark
import LaunchProfFiles
import LaunchSupport

/// `launchprof gate`: base and head measured side by side in one session,
/// until the change's interval decides.
struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Decide whether a change made launching slower: base and head measured side by side until the verdict is known.",
        discussion: """
            launchprof gate --base-command 'OLD ARGS' [options] -- NEW ARGS
            launchprof gate --base REV [--head REV] --build 'COMMAND' [options] -- PROGRAM ARGS

            Base and head run alternately in ABBA blocks; runs are paired only with a run of the \
            other side on the same CPU (neighbours on any CPU when the launch spans CPUs); the \
            change's interval, and its trimmed mean's, are looked at after 20, 30, 45, … pairs with \
            an error-spending schedule (by pairs or by the budget's time), until one lies above \
            +threshold (regressed) or below -threshold (improved), or both inside ±threshold \
            (unchanged), or the budget ends (inconclusive). Method and error rates: docs/gate.md. Exit status: 0 unchanged or \
            improved, 1 regressed, 2 bad usage, 3 a launch or build failed, 4 inconclusive, 130 \
            interrupted.
            """)

    @OptionGroup var options: GateOptions

    @Argument(
        parsing: .postTerminator,
        help: ArgumentHelp("The head command (or, with --base, the program in each revision).", valueName: "command"))
    var command: [String] = []

    mutating func validate() throws {
        if command.isEmpty { throw ValidationError("give the head command after '--' (with --base: the program to run in each revision)") }
    }

    func run() throws {
        let settings = try options.measuring.settings()
        let environment = try options.measuring.environment()
        let activation = try options.measuring.activating.activation()
        let ready = try options.measuring.probe()
        var base: LaunchTarget
        var head: LaunchTarget
        var spawner: Spawner?
        if let baseCommand = options.baseCommand {
            let words: [String]
            do {
                words = try CommandSplitter.split(baseCommand)
            } catch {
                throw Output.fail("--base-command '\(baseCommand)': \(error)", status: .usage)
            }
            guard !words.isEmpty else {
                throw Output.fail("--base-command is empty: give the base program and its arguments", status: .usage)
            }
            base = LaunchTarget(name: "base", arguments: words, environment: environment, ready: ready)
            head = LaunchTarget(name: "head", arguments: command, environment: environment, ready: ready)
        } else {
            (base, head, spawner) = try revisionTargets(environment: environment, ready: ready)
        }
        base.activation = activation
        head.activation = activation
        var session = GateSession(base: base, head: head, settings: settings)
        session.spawner = spawner
        let line = ProgressLine()
        let document: GateDocument
        do {
            document = try session.runSynchronously { progress in
                guard line.isEnabled, !progress.isWarmup else { return }
                let interval = progress.look.map { " [\(GateReport.percent($0.low)), \(GateReport.percent($0.high))]" } ?? ""
                line.update(ProgressLine.Status(label: "gate: \(progress.pairs) pairs\(interval)", run: progress.runs))
            }
        } catch {
            line.clear()
            throw Output.fail(error.message, status: error.status)
        }
        line.clear()
        Output.standardOutput(GateReport.text(document))
        if ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" {
            for annotation in GateExports.annotations(document) { Output.line(annotation) }
        }
        try export(document)
        if document.exitStatus != 0 { throw ExitCode(document.exitStatus) }
    }

    /// `--base REV [--head REV] --build`: each revision built in its
    /// worktree, the program taken inside it; and the spawner that built
    /// them, for the gate to measure through.
    private func revisionTargets(
        environment: [String: String], ready: ReadyProbe
    ) throws -> (LaunchTarget, LaunchTarget, Spawner) {
        guard let baseRevision = options.base, let buildCommand = options.build else {
            throw Output.fail("--base REV needs --build 'COMMAND'", status: .usage)
        }
        let interrupt: InterruptMonitor
        do {
            interrupt = try InterruptMonitor(catchingSignals: true)
        } catch {
            throw Output.fail("cannot watch for interrupts: \(error)", status: .launchFailed)
        }
        defer { interrupt.stop() }
        do {
            var builds = try RevisionBuilds(
                in: FileManager.default.currentDirectoryPath, buildCommand: buildCommand, cacheDirectory: options.cacheDir)
            builds.interrupt = interrupt
            var targets: [LaunchTarget] = []
            for (name, revision) in [("base", baseRevision), ("head", options.head ?? "HEAD")] {
                let built = try builds.build(revision) { Output.note($0) }
                if built.reused { Output.note("\(name) \(revision) (\(built.commit.prefix(12))): reusing the build in \(built.directory)") }
                var arguments = command
                arguments[0] = built.program(arguments[0])
                targets.append(
                    LaunchTarget(
                        name: name, arguments: arguments, environment: environment, workingDirectory: built.directory, ready: ready))
            }
            return (targets[0], targets[1], builds.spawner)
        } catch {
            throw Output.fail(error.description, status: error.status)
        }
    }

    private func export(_ document: GateDocument) throws {
        do {
            if let path = options.exportJson { try AtomicFile.write(try document.json(), to: path) }
            if let path = options.exportMarkdown { try AtomicFile.write(GateExports.markdown(document), to: path) }
            if let path = options.exportJunit { try AtomicFile.write(GateExports.junit(document), to: path) }
        } catch {
            throw Output.fail("cannot write an export: \(error)", status: .usage)
        }
    }
}
