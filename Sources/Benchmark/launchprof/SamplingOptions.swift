import ArgumentParser
import LaunchBenchmark

/// The sampling settings of `launchprof profile` and `run --profile`, one
/// option group for both: one declaration, one set of defaults (the
/// engine's `ProfilingSettings`, which the help texts quote), one check and
/// one conversion. `Spelling` names the flags of each command: `profile`
/// says `--hz`, `run` says `--profile-hz` beside its own `--runs`.
struct SamplingOptions<Spelling: SamplingSpelling>: ParsableArguments {
    @Option(
        name: .customLong(Spelling.prefix + "runs"),
        help: ArgumentHelp(
            Spelling.help(
                "Launches to sample, merged into one profile (default \(RunDefaults.profileRuns); at 1 kHz a launch gives "
                    + "one sample per millisecond of CPU, so one short launch gives few)."),
            valueName: "n"))
    var runs: Int?

    @Option(
        name: .customLong(Spelling.prefix + "hz"),
        help: ArgumentHelp(
            Spelling.help("Samples per second of each thread's CPU time, 1-100000 (default \(RunDefaults.profileRate))."),
            valueName: "hz"))
    var hz: UInt32?

    @Option(
        name: .customLong(Spelling.prefix + "clock"),
        help: ArgumentHelp(
            Spelling.help(
                "What a period counts: cpu (each thread's CPU time; the default) or wall (every thread, running or waiting; "
                    + "each sample marked on or off CPU)."),
            valueName: "clock"),
        transform: { try SamplingClock(parsing: $0, flag: "--" + Spelling.prefix + "clock") })
    var clock: SamplingClock?

    @Option(
        name: .customLong(Spelling.prefix + "sampler"),
        help: ArgumentHelp(
            Spelling.help(
                "Who samples the CPU clock: kernel (perf events, nothing runs in the program; the default) or in-process "
                    + "(SIGPROF and libunwind in the program)."),
            valueName: "method"),
        transform: { try SamplingMethod(parsing: $0, flag: "--" + Spelling.prefix + "sampler") })
    var sampler: SamplingMethod?

    @Option(
        name: .customLong(Spelling.prefix + Spelling.directoryName),
        help: ArgumentHelp(
            Spelling.help("The directory for the profiles' files, created if missing (default \(RunDefaults.profileDirectory))."),
            valueName: "dir"))
    var directory: String?

    /// Whether any of these flags was given.
    var isGiven: Bool { runs != nil || hz != nil || clock != nil || sampler != nil || directory != nil }

    /// The flags, as the user types them, for messages: "--a, --b … and --e".
    static var flagList: String {
        let names = ["runs", "hz", Spelling.directoryName, "clock", "sampler"].map { "--" + Spelling.prefix + $0 }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    mutating func validate() throws {
        if let runs { _ = try RunOptions.count(runs, flag: "--" + Spelling.prefix + "runs", in: 1...1000) }
        if let hz { _ = try RunOptions.count(Int(hz), flag: "--" + Spelling.prefix + "hz", in: 1...100_000) }
    }

    /// The engine's settings: its defaults, with what the flags set.
    var settings: ProfilingSettings {
        var settings = ProfilingSettings()
        if let runs { settings.runs = runs }
        if let hz { settings.rate = hz }
        if let clock { settings.clock = clock }
        if let sampler { settings.method = sampler }
        if let directory { settings.directory = directory }
        settings.directoryFlag = "--" + Spelling.prefix + Spelling.directoryName
        return settings
    }
}
