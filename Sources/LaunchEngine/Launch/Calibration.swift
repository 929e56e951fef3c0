import Glibc

/// The workload launchprof measures beside the targets when a comparison
/// crosses time and no reference is named (docs/calibration.md): a shared
/// machine's speed drifts between a baseline and a later run, and without a
/// reference that drift became a verdict ("improved −7%" of an unchanged
/// binary). Its runs are interleaved with the targets' (A B C A B C …),
/// kept in the results, and the comparison divides each target's time by
/// the calibration's in the same round, as it does for a named reference;
/// the calibration's own change is reported as drift and never gates.
///
/// The workload is `/bin/sh` starting coreutils' `true` ten times, one
/// after another: a dynamically linked program that does nothing but what
/// every launch does first — fork and exec, the dynamic loader mapping and
/// relocating libc, page faults on the way to main, exit and reaping. Both
/// exist on every Linux launchprof runs on and do not change when launchprof
/// or the project does. Ten launches, not one: a single ~0.5 ms launch is
/// dominated by one wake-up's latency and spikes 3–4× on a busy machine;
/// ten (~6 ms) average those out and still add only a little to a benchmark
/// of real programs. The comparison also divides by the median of the
/// calibration's five rounds around each run (``BaselineComparer``), which
/// follows the machine's drift and not a single run's spike.
public enum Calibration {
    /// The calibration target's name in plans, results and reports.
    public static let targetName = "launchprof-calibration"

    /// Launches of `true` per calibration run.
    static let launches = 10

    /// The calibration target: `/bin/sh -c 'TRUE; TRUE; …'`, ready at its exit.
    public static var target: LaunchTarget {
        let script = Array(repeating: program, count: launches).joined(separator: "; ")
        return LaunchTarget(name: targetName, arguments: ["/bin/sh", "-c", script], ready: .exit)
    }

    /// `/usr/bin/true` or `/bin/true`, whichever exists (merged /usr or not).
    static var program: String {
        for path in ["/usr/bin/true", "/bin/true"] where access(path, X_OK) == 0 { return path }
        return "true"
    }
}
