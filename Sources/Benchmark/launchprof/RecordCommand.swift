import ArgumentParser
import Foundation
import LaunchBenchmark

/// `launchprof record [--output FILE] -- CMD ARGS…`: one traced launch.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run a program once with tracing on and write its trace file.",
        discussion: """
            The program must link LaunchProf (the trace is written by the library at exit, or just after launch \
            complete with --ready). A program that stays up, such as a server, is recorded with --ready PROBE. \
            Open the result with 'launchprof export TRACE --format chrome' in https://ui.perfetto.dev. \
            Exits with 2 on bad usage, 3 when the program failed or wrote no trace.
            """
    )

    @Option(name: .shortAndLong, help: "Where to write the trace (default: <program>.lptrace in the current directory).")
    var output: String?

    @OptionGroup var timing: LaunchTimingOptions

    @Option(
        help: ArgumentHelp(
            "When the launch counts as done, as for 'launchprof run': \(ReadyProbe.formList()). With any but exit, the program is stopped once it is ready and has written its trace (SIGTERM to its process group, SIGKILL after --grace), as 'run' stops it: a server can be recorded.",
            valueName: "probe"),
        transform: { try ReadyProbe(parsing: $0) })
    var ready: ReadyProbe = .exit

    @Flag(help: "Discard the program's standard output and error instead of showing them.")
    var quiet = false

    @Argument(parsing: .captureForPassthrough, help: "The command to run, after '--' (argv exactly, no shell).")
    var command: [String] = []

    mutating func validate() throws {
        // The command is captured whole, options included; `--help` before
        // it (not after `--`, where it is the program's) asks for ours.
        if let first = command.first, first == "--help" || first == "-h" { throw CleanExit.helpRequest(self) }
        if command.first == "--" { command.removeFirst() }
        guard !command.isEmpty else { throw ValidationError("give the command to record after '--', e.g. launchprof record -- ./app") }
    }

    func run() throws {
        let program = URL(fileURLWithPath: command[0]).lastPathComponent
        let path = output ?? "\(program).lptrace"
        let target = LaunchTarget(name: program, arguments: RawCommandLine.current.suffix(matching: command))
        let recorder = TraceRecorder(
            timeout: timing.timeout ?? RunDefaults.timeout, output: quiet ? .discard : .inherit, probe: ready,
            grace: timing.grace ?? RunDefaults.grace, interrupt: try InterruptMonitor())
        defer { recorder.interrupt?.stop() }
        do {
            let recorded = try recorder.record(target, to: path)
            Output.standardError(RecordSummary(recorded, path: path).text)
        } catch {
            Output.note("\(error)", command: "record")
            throw ExitCode(error.status)
        }
    }
}
