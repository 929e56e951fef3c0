import Foundation
import LaunchSupport

/// launchprof's defaults, where a flag, a config file and a library caller
/// say nothing: one home for each number.
public enum RunDefaults {
    /// A run neither ready nor exited by then is killed with its process tree.
    public static let timeout: Duration = .seconds(60)
    /// How long a program stopped after ready may take to exit before SIGKILL.
    public static let grace: Duration = .seconds(2)
    /// Unmeasured runs per target and mode before measuring.
    public static let warmup = 3
    /// The page-cache mode when none is asked for.
    public static let modes: [LaunchMode] = [.warm]
    /// Launches sampled per target by `run --profile`, merged into one profile.
    public static let profileRuns = 10
    /// Samples per second of each thread's CPU time: one stack per
    /// millisecond of a thread's CPU, 25 for a 25 ms launch, 250 for `run
    /// --profile`'s ten. Every thread starts with a fresh period, so a launch
    /// spread over many short pool threads loses up to a period per thread:
    /// at 500 Hz an async Swift server kept 78% of its periods, at 1 kHz
    /// 86–92%. The kernel's sampling costs a 25 ms Swift launch 2.2–2.8% of
    /// its time to ready at 1 kHz on this project's 2-core VM (a ~20 µs
    /// timer interrupt per sample is most of it), 8% at perf's 4 kHz
    /// (docs/sampling.md, "What it costs").
    public static let profileRate: UInt32 = 1000
    /// Where `run --profile` writes each target's files.
    public static let profileDirectory = ".launchprof/profiles"
    /// A change of a statistic beyond this is a regression when significant.
    public static let threshold = 0.05
    /// The significance level of the Mann–Whitney U test.
    public static let significance = 0.01
    /// Where launchprof keeps files of its own for a moment (the runs'
    /// traces): `$TMPDIR`, else /tmp.
    public static var temporaryDirectory: String { PrivateDirectory.temporaryBase }
}
