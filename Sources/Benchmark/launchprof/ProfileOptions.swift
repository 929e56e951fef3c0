import ArgumentParser
import LaunchBenchmark

/// `run --profile` and its options: after measuring, each target's launches
/// sampled (not measured) into one profile per target.
struct ProfileOptions: ParsableArguments {
    @Flag(
        help:
            "After measuring, sample the call stacks of each target's launches (not measured) and write a flame graph, folded stacks and a speedscope profile per target; --export-json lists them, --report draws the flame graphs."
    )
    var profile = false

    @Option(help: ArgumentHelp("With --profile: launches sampled per target, merged into one profile (default 10).", valueName: "n"))
    var profileRuns: Int?

    @Option(help: ArgumentHelp("With --profile: samples per second of each thread's CPU time (default 1000).", valueName: "hz"))
    var profileHz: UInt32?

    @Option(help: ArgumentHelp("With --profile: the directory for each target's files (default .launchprof/profiles).", valueName: "dir"))
    var profileDir: String?

    @Option(
        help: ArgumentHelp(
            "With --profile: cpu (each thread's CPU time, the default) or wall (every thread, running or waiting).", valueName: "clock"),
        transform: { try SamplingClock(parsing: $0, flag: "--profile-clock") })
    var profileClock: SamplingClock?

    @Option(
        help: ArgumentHelp(
            "With --profile: who samples the CPU clock, kernel (perf events, nothing runs in the program; the default) or in-process.",
            valueName: "method"),
        transform: { try SamplingMethod(parsing: $0, flag: "--profile-sampler") })
    var profileSampler: SamplingMethod?

    mutating func validate() throws {
        if !profile, profileRuns != nil || profileHz != nil || profileDir != nil || profileClock != nil || profileSampler != nil {
            throw ValidationError("--profile-runs, --profile-hz, --profile-dir, --profile-clock and --profile-sampler apply with --profile")
        }
        if let profileRuns { _ = try RunOptions.count(profileRuns, flag: "--profile-runs", in: 1...1000) }
        if let profileHz { _ = try RunOptions.count(Int(profileHz), flag: "--profile-hz", in: 1...100_000) }
    }

    /// What `--profile` asks for; nil without it.
    var settings: ProfilingSettings? {
        guard profile else { return nil }
        var profiling = ProfilingSettings()
        if let profileRuns { profiling.runs = profileRuns }
        if let profileHz { profiling.rate = profileHz }
        if let profileDir { profiling.directory = profileDir }
        if let profileClock { profiling.clock = profileClock }
        if let profileSampler { profiling.method = profileSampler }
        return profiling
    }
}
