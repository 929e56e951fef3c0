import ArgumentParser
import LaunchBenchmark

/// Regression-test flags, shared by `run` and `compare`.
struct RegressionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A change beyond this is a regression when significant (default 5%, or the config's).", valueName: "percent"),
        transform: { try Fraction(parsing: $0) })
    var threshold: Fraction?

    @Option(
        help: ArgumentHelp(
            "Significance level of the Mann–Whitney U test (default 0.01, or the config's).", valueName: "alpha"),
        transform: { try Fraction(parsing: $0) })
    var significance: Fraction?

    @Flag(
        help: ArgumentHelp(
            "Compare times with the baseline as measured. By default, when the run's reference target (--reference or the "
                + "config's) was measured on both sides, times are compared relative to it, which takes the machine's drift out."))
    var absolute = false

    @Option(help: ArgumentHelp("Write budgets and regression checks as JUnit XML to this file.", valueName: "file"))
    var exportJunit: String?

    /// Sets the threshold, significance and comparison mode these flags ask for.
    func apply(to settings: inout BenchmarkSettings) {
        settings.threshold = threshold?.value
        settings.significance = significance?.value
        settings.relativeToReference = !absolute
    }
}
