import LaunchEngine

/// `run --profile`: how each target's launches are sampled after measuring.
public struct ProfilingSettings: Sendable, Equatable {
    /// Launches sampled per target, merged into one profile.
    public var runs = RunDefaults.profileRuns
    /// Samples per second of each thread's CPU time (or of wall-clock time).
    public var rate = RunDefaults.profileRate
    /// What a period counts: each thread's CPU time, or the wall clock.
    public var clock = SamplingClock.cpu
    /// Who samples the CPU clock: the kernel, or the program itself.
    public var method = SamplingMethod.kernel
    /// The directory for each target's files (created before measuring).
    public var directory = RunDefaults.profileDirectory
    /// liblaunchprof-preload.so, which samples programs that do not link
    /// LaunchProf; nil: only those that do are sampled.
    public var preloadLibrary: String? = ProfileRecorder.defaultPreloadLibrary()

    /// Settings for `runs` launches per target at `rate` samples per second, written to `directory`.
    public init(
        runs: Int = RunDefaults.profileRuns, rate: UInt32 = RunDefaults.profileRate, directory: String = RunDefaults.profileDirectory
    ) {
        self.runs = runs
        self.rate = rate
        self.directory = directory
    }
}
