import LaunchEngine

/// What a running benchmark tells its caller, in order: progress of each
/// run, the measured results (before any profiling starts), then each
/// target's profile.
public enum BenchmarkEvent: Sendable {
    /// A run (or a warm-up run) has been measured.
    case progress(BenchmarkProgress)
    /// Measuring is over: the results with budgets checked and the baseline
    /// compared, before profiling (the CLI prints its report here).
    case measured(ResultsDocument)
    /// Launch `launch` of `total` of a target's profile is about to start.
    case profiling(target: String, launch: Int, total: Int)
    /// A target's profile is written; `summary` is the CLI's lines about it.
    case profiled(target: String, summary: String)
    /// Something the caller should be told (a missing preload library, a
    /// target that could not be profiled); not a failure of the benchmark.
    case note(String)
}
