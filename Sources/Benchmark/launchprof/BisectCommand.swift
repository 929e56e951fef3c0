import ArgumentParser
import Foundation
import LaunchBenchmark
import LaunchProfFiles
import LaunchSupport

/// `launchprof bisect`: the first slow commit between a good and a bad
/// revision, each step a side-by-side gate against the good build.
struct BisectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the first commit that made launching slower: a binary search of gates against the good revision.",
        discussion: """
            launchprof bisect --good REV --bad REV --build 'COMMAND' [options] -- PROGRAM ARGS

            First the bad revision is gated against the good one: it must be slower (regressed \
            beyond --threshold). Then the first-parent chain from good to bad is halved, each \
            commit built in a worktree of its own and gated against the good build; an \
            inconclusive step is measured again for twice the budget, then the bad revision is \
            gated against it; a commit that does not build or launch is skipped. Your HEAD, \
            working tree, index and branches are never touched. Method: docs/bisect.md. Exit \
            status: 0 found, 2 bad usage, 3 the good or bad revision failed to build or launch, 4 \
            inconclusive, 5 bad is not slower than good, 6 skipped commits leave several \
            candidates, 130 interrupted.
            """)

    @OptionGroup var options: BisectOptions

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The program to run in each revision, and its arguments.", valueName: "command"))
    var command: [String] = []

    mutating func validate() throws {
        if command.isEmpty { throw ValidationError("give the program to run in each revision after '--'") }
    }

    func run() throws {
        let interrupt: InterruptMonitor
        do {
            interrupt = try InterruptMonitor(catchingSignals: true)
        } catch {
            throw Output.fail("cannot watch for interrupts: \(error)", status: .launchFailed)
        }
        defer { interrupt.stop() }
        var session = BisectSession(
            directory: FileManager.default.currentDirectoryPath, good: options.good, bad: options.bad, buildCommand: options.build,
            command: command)
        session.environment = try options.measuring.environment()
        session.ready = try options.measuring.probe()
        session.activation = try options.measuring.activating.activation()
        session.settings = try options.measuring.settings()
        session.cacheDirectory = options.cacheDir
        session.keepBuilds = options.keepBuilds
        session.measuresEffect = !options.noEffectGate
        let document: BisectDocument
        do {
            document = try session.runSynchronously(interrupt: interrupt) { Output.note($0) }
        } catch {
            throw Output.fail(error.message, status: error.status)
        }
        Output.standardOutput(BisectReport.text(document))
        if let path = options.exportJson {
            do {
                try AtomicFile.write(try document.json(), to: path)
            } catch {
                throw Output.fail("cannot write --export-json '\(path)': \(error)", status: .usage)
            }
        }
        if document.exitStatus != 0 { throw ExitCode(document.exitStatus) }
    }
}
