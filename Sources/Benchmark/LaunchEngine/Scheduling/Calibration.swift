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
/// after another, then counting to 1,000 in shell arithmetic. `true` is a
/// dynamically linked program that does nothing but what every launch does
/// first — fork and exec, the dynamic loader mapping and relocating libc,
/// page faults on the way to main, exit and reaping; the count is user-space
/// CPU work, which a launch also does and which a busy machine slows
/// differently from exec. Both exist on every Linux launchprof runs on and do
/// not change when launchprof or the project does. Ten launches, not one: a
/// single ~0.5 ms launch is dominated by one wake-up's latency and spikes
/// 3–4× on a busy machine; ten average those out. The comparison divides by
/// the median of the calibration's five rounds around each run
/// (`BaselineComparer`), which follows the drift and not a single run's
/// spike, and gives a verdict only when the change holds as measured too.
package enum Calibration {
    /// The calibration target's name in plans, results and reports.
    package static let targetName = "launchprof-calibration"

    /// Launches of `true` per calibration run.
    static let launches = 10
    /// Iterations of the shell's counting loop per calibration run.
    static let iterations = 1000

    /// The calibration target: `/bin/sh -c 'TRUE; TRUE; …'`, ready at its exit.
    package static var target: LaunchTarget {
        let script =
            Array(repeating: program, count: launches).joined(separator: "; ")
            + "; i=0; while [ $i -lt \(iterations) ]; do i=$((i+1)); done"
        return LaunchTarget(name: targetName, arguments: ["/bin/sh", "-c", script], ready: .exit)
    }

    /// `/usr/bin/true` or `/bin/true`, whichever exists (merged /usr or not).
    static var program: String {
        for path in ["/usr/bin/true", "/bin/true"] where access(path, X_OK) == 0 { return path }
        return "true"
    }
}
