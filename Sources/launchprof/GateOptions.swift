import ArgumentParser
import LaunchBenchmark

/// Regression-test flags, shared by `run` and `compare`.
struct GateOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A change beyond this is a regression when significant (default 5%, or the config's).", valueName: "percent"))
    var threshold: String?

    @Option(
        help: ArgumentHelp(
            "Significance level of the Mann–Whitney U test (default 0.01, or the config's).", valueName: "alpha"))
    var significance: String?

    @Flag(
        help: ArgumentHelp(
            "Compare times with the baseline as measured. By default, when the run's reference target (--reference or the "
                + "config's) was measured on both sides, times are compared relative to it, which takes the machine's drift out."))
    var absolute = false

    @Option(help: ArgumentHelp("Write budgets and regression checks as JUnit XML to this file.", valueName: "file"))
    var exportJunit: String?

    mutating func validate() throws {
        _ = try thresholdValue()
        _ = try significanceValue()
    }

    func thresholdValue() throws -> Double? {
        try threshold.map { try Self.fraction($0, flag: "--threshold") }
    }

    func significanceValue() throws -> Double? {
        try significance.map { try Self.fraction($0, flag: "--significance") }
    }

    /// `5%` or `0.05`, strictly between 0 and 1.
    static func fraction(_ text: String, flag: String) throws -> Double {
        guard let value = Fraction.parse(text) else {
            throw ValidationError("\(flag) must be a percentage or fraction between 0 and 1 (e.g. 5% or 0.05), got '\(text)'")
        }
        return value
    }

    /// Sets the threshold, significance and comparison mode these flags ask for.
    func apply(to settings: inout BenchmarkSettings) {
        settings.threshold = try? thresholdValue()  // validated in validate()
        settings.significance = try? significanceValue()
        settings.relativeToReference = !absolute
    }
}
