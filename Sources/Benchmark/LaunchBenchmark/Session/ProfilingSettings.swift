import LaunchEngine

/// How a target's launches are sampled: `run --profile` (after measuring,
/// each target) and `launchprof profile` (one program) alike, both through
/// `ProfilingStep`.
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
    /// What the note about a missing preload library tells the user to do;
    /// nil: the user turned the preload library off, no note.
    package var preloadRemedy: String? = "set LAUNCHPROF_PRELOAD_LIBRARY"
    /// The flag that names ``directory``, for its errors.
    package var directoryFlag = "--profile-dir"
    /// Where the sampled launches' output goes: discarded after a benchmark;
    /// `launchprof profile` shows it unless `--quiet`.
    package var output = OutputDisposition.discard

    /// Settings for `runs` launches per target at `rate` samples per second, written to `directory`.
    public init(
        runs: Int = RunDefaults.profileRuns, rate: UInt32 = RunDefaults.profileRate, directory: String = RunDefaults.profileDirectory
    ) {
        self.runs = runs
        self.rate = rate
        self.directory = directory
    }
}
