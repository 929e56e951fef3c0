import ArgumentParser
import Foundation
import LaunchBenchmark

/// `launchprof profile [--hz N] [--runs N] [--ready PROBE] [--output-dir D] -- CMD ARGS…`:
/// sampled launches (`SamplingOptions`, shared with `run --profile`),
/// written as traces, folded stacks, a speedscope profile, a flame graph
/// and a pprof profile.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Sample the call stacks of a program's launches and draw where their time goes.",
        discussion: """
            Works for any program. On the CPU clock the kernel samples (perf events the launched tree \
            inherits, as perf record does; the stacks are unwound after the launch), from the exec until \
            ready or exit; with --clock wall, --sampler in-process, or where perf events are refused, the \
            program samples itself: LaunchProf programs until launch complete, any other dynamically linked \
            program through liblaunchprof-preload.so in LD_PRELOAD (until exit). \
            Samples 10 launches merged into one profile (--runs; the defaults are run --profile's) and \
            writes into .launchprof/profiles (--output-dir): NAME-1.lptrace… (NAME.lptrace with --runs 1), \
            NAME.folded (flamegraph.pl/inferno), \
            NAME.speedscope.json (open it at https://www.speedscope.app), NAME.svg (a flame graph; open it \
            in a browser) and NAME.pb.gz (pprof, for go tool pprof, Pyroscope and Parca). With --ready, a program that stays up is stopped with SIGTERM once ready; a \
            LaunchProf program writes its trace at launch complete. Exits with 2 on bad usage, 3 when the \
            program failed or wrote no samples.
            """
    )

    /// `profile`'s spelling of the sampling flags: `--hz`, `--runs`, `--output-dir`…
    enum Spelling: SamplingSpelling {
        static let prefix = ""
        static let directoryName = "output-dir"
        static let helpPrefix = ""
    }

    @OptionGroup var sampling: SamplingOptions<Spelling>

    @Option(
        help: ArgumentHelp(
            "When the launch is over: \(ReadyProbe.formList(displays: false)); the program is then stopped with SIGTERM.",
            valueName: "probe"),
        transform: { try ReadyProbe(parsing: $0) })
    var ready: ReadyProbe = .exit

    @OptionGroup var timing: LaunchTimingOptions

    @Option(help: "The base name of the output files (default: the program's name).")
    var name: String?

    @Option(
        help: ArgumentHelp(
            "The preload library (default: $LAUNCHPROF_PRELOAD_LIBRARY, else liblaunchprof-preload.so "
                + "in ../libexec/launchprof/ or beside launchprof)."))
    var preloadLibrary: String?

    @Flag(help: "Do not preload the sampler: only programs that link LaunchProf are sampled.")
    var noPreload = false

    @Flag(help: "Discard the program's standard output and error instead of showing them.")
    var quiet = false

    @Argument(parsing: .captureForPassthrough, help: "The command to profile, after '--' (argv exactly, no shell).")
    var command: [String] = []

    mutating func validate() throws {
        // The command is captured whole, options included; `--help` before
        // it (not after `--`, where it is the program's) asks for ours.
        if let first = command.first, first == "--help" || first == "-h" { throw CleanExit.helpRequest(self) }
        if command.first == "--" { command.removeFirst() }
        guard !command.isEmpty else { throw ValidationError("give the command to profile after '--', e.g. launchprof profile -- ./app") }
        if let name, name.isEmpty || name.contains("/") {
            throw ValidationError("--name must be a file name without '/', got '\(name)'")
        }
    }

    func run() throws {
        let program = URL(fileURLWithPath: command[0]).lastPathComponent
        let base = name ?? program
        let preload = ProfileRecorder.preloadLibrary(explicit: preloadLibrary, disabled: noPreload)
        var settings = sampling.settings
        settings.preloadLibrary = preload.path
        settings.preloadRemedy = noPreload ? nil : "set LAUNCHPROF_PRELOAD_LIBRARY or --preload-library"
        settings.output = quiet ? .discard : .inherit
        // Named after its program (the pprof profile's `program` label);
        // its files after `base`.
        var target = LaunchTarget(name: program, arguments: RawCommandLine.current.suffix(matching: command))
        target.ready = ready
        let launch = LaunchPlan(target: target, timeout: timing.timeout ?? RunDefaults.timeout, grace: timing.grace ?? RunDefaults.grace)
        // The same path as `run --profile`, for this one program.
        let step = ProfilingStep(settings: settings, labels: MetricLabels(), launches: [launch], names: [base])
        let interrupt = try InterruptMonitor()
        defer { interrupt.stop() }
        let outcome: ProfilingOutcome
        do {
            outcome = try step.run(interrupt: interrupt) { event in
                if case .note(let note) = event { Output.note(note, command: "profile") }
            }
        } catch {
            Output.note(error.message, command: "profile")
            throw ExitCode(error.status)
        }
        if outcome.interrupted { throw ExitCode(LaunchExitStatus.interrupted) }
        if let (_, error) = outcome.errors.first { throw ExitCode(error.status) }
        guard let (_, profiled) = outcome.profiles.first else { throw ExitCode(LaunchExitStatus.launchFailed) }
        Output.standardError(profiled.summary(base: base))
        if let failure = profiled.failure {
            // The profile is written (where a failing launch spent its time
            // is worth seeing); the status says the program failed, as run's does.
            Output.note("\(failure): the profile is of a failed launch", command: "profile")
            throw ExitCode(LaunchExitStatus.launchFailed)
        }
    }
}
