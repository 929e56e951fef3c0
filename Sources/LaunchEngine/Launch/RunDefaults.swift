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
    /// Samples per second of each thread's CPU time.
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
