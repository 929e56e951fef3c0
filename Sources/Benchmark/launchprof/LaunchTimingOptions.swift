import ArgumentParser
import LaunchBenchmark

/// `--timeout` and `--grace`, one option group for `run`, `record` and
/// `profile`: each converted once, as it is parsed, through the harness's
/// one validated parser (no trap on inf, NaN or huge values; bad values exit 2).
struct LaunchTimingOptions: ParsableArguments {
    @Option(
        help: "Seconds before a launch that is neither ready nor exited is killed with its process group (default 60).",
        transform: { try RunOptions.seconds($0, flag: "--timeout") })
    var timeout: Duration?

    @Option(
        help: "Seconds a program stopped after ready may take to exit before it gets SIGKILL (default 1).",
        transform: { try RunOptions.seconds($0, flag: "--grace", allowZero: true) })
    var grace: Duration?
}
