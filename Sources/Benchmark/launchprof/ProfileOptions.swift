import ArgumentParser
import LaunchBenchmark

/// `run --profile` and its options: after measuring, each target's launches
/// sampled (not measured) into one profile per target, with the sampling
/// flags `launchprof profile` has, spelled `--profile-…`.
struct ProfileOptions: ParsableArguments {
    /// `run`'s spelling of the sampling flags: `--profile-hz`, `--profile-dir`…
    enum Spelling: SamplingSpelling {
        static let prefix = "profile-"
        static let directoryName = "dir"
        static let helpPrefix = "With --profile: "
    }

    @Flag(
        help:
            "After measuring, sample the call stacks of each target's launches (not measured) and write a flame graph, folded stacks and a speedscope profile per target; --export-json lists them, --report draws the flame graphs."
    )
    var profile = false

    @OptionGroup var sampling: SamplingOptions<Spelling>

    mutating func validate() throws {
        if !profile, sampling.isGiven { throw ValidationError("\(SamplingOptions<Spelling>.flagList) apply with --profile") }
    }

    /// What `--profile` asks for; nil without it.
    var settings: ProfilingSettings? { profile ? sampling.settings : nil }
}
