import ArgumentParser
import Foundation
import LaunchBenchmark

/// `launchprof profile [--hz N] [--runs N] [--ready PROBE] [--output-dir D] -- CMD ARGS…`:
/// sampled launches, written as traces, folded stacks, a speedscope profile,
/// a flame graph and a pprof profile.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Sample the call stacks of one launch and draw where its time goes.",
        discussion: """
            Works for any program. On the CPU clock the kernel samples (perf events the launched tree \
            inherits, as perf record does; the stacks are unwound after the launch), from the exec until \
            ready or exit; with --clock wall, --sampler in-process, or where perf events are refused, the \
            program samples itself: LaunchProf programs until launch complete, any other dynamically linked \
            program through liblaunchprof-preload.so in LD_PRELOAD (until exit). \
            Writes NAME.lptrace (NAME-1.lptrace… with --runs), NAME.folded (flamegraph.pl/inferno), \
            NAME.speedscope.json (open it at https://www.speedscope.app), NAME.svg (a flame graph; open it \
            in a browser) and NAME.pb.gz (pprof, for go tool pprof, Pyroscope and Parca). With --ready, a program that stays up is stopped with SIGTERM once ready; a \
            LaunchProf program writes its trace at launch complete. Exits with 2 on bad usage, 3 when the \
            program failed or wrote no samples.
            """
    )

    @Option(help: "Samples per second of each thread's CPU time (1-100000).")
    var hz: UInt32 = RunDefaults.profileRate

    @Option(
        help: ArgumentHelp(
            "What a period counts: cpu (each thread's CPU time) or wall (every thread, running or waiting; each sample marked on or off CPU).",
            valueName: "clock"),
        transform: { try SamplingClock(parsing: $0, flag: "--clock") })
    var clock: SamplingClock = .cpu

    @Option(
        help: ArgumentHelp(
            "Who samples the CPU clock: kernel (perf events, nothing runs in the program; the default) or in-process (SIGPROF and libunwind in the program).",
            valueName: "method"),
        transform: { try SamplingMethod(parsing: $0, flag: "--sampler") })
    var sampler: SamplingMethod = .kernel

    @Option(help: "Launches to sample; their samples make one profile (a short launch gives few samples each).")
    var runs: Int = 1

    @Option(
        help: ArgumentHelp(
            "When the launch is over: \(ReadyProbe.formList(displays: false)); the program is then stopped with SIGTERM.",
            valueName: "probe"),
        transform: { try ReadyProbe(parsing: $0) })
    var ready: ReadyProbe = .exit

    @OptionGroup var timing: LaunchTimingOptions

    @Option(help: "The directory for the output files (created if missing).")
    var outputDir: String = "."

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
        _ = try RunOptions.count(Int(hz), flag: "--hz", in: 1...100_000)
        _ = try RunOptions.count(runs, flag: "--runs", in: 1...1000)
        if let name, name.isEmpty || name.contains("/") {
            throw ValidationError("--name must be a file name without '/', got '\(name)'")
        }
    }

    func run() throws {
        let program = URL(fileURLWithPath: command[0]).lastPathComponent
        let base = name ?? program
        let preload = ProfileRecorder.preloadLibrary(explicit: preloadLibrary, disabled: noPreload)
        var settings = ProfilingSettings(runs: runs, rate: hz, directory: outputDir)
        settings.clock = clock
        settings.method = sampler
        settings.preloadLibrary = preload.path
        settings.preloadRemedy = noPreload ? nil : "set LAUNCHPROF_PRELOAD_LIBRARY or --preload-library"
        settings.directoryFlag = "--output-dir"
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
