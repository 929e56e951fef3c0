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
    /// Samples per second of each thread's CPU time: one stack per 2 ms of
    /// a thread's CPU, 12 for a 25 ms launch, 120 for `run --profile`'s ten.
    /// On this project's 2-core VM the kernel's sampling costs a 25 ms Swift
    /// launch about 2% here (a timer interrupt, ~20 µs each, is most of it),
    /// 3% at 1 kHz and 9% at perf's 4 kHz (docs/sampling.md, "What it
    /// costs"): the highest rate that stays within 3%.
    public static let profileRate: UInt32 = 500
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
