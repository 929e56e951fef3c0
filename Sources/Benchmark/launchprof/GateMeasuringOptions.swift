import ArgumentParser
import LaunchBenchmark

/// How a gate measures and decides: the flags `gate` and `bisect` (each of
/// its steps a gate) share, made into one `GateSettings`.
struct GateMeasuringOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The change that matters, in percent (2 or 2%): regressed beyond +this, improved beyond -this, unchanged within (default 3).",
            valueName: "percent"),
        transform: { try GateMeasuringOptions.percent($0) })
    var threshold: Double?

    @Option(
        help: "The measuring budget in seconds; inconclusive when it ends before a verdict (default 120).",
        transform: { try RunOptions.seconds($0, flag: "--max-time") })
    var maxTime: Duration?

    @Option(help: "The most measured runs per side (default 10000).")
    var maxRuns: Int?

    @Option(name: [.short, .long], help: "Unmeasured runs per side before measuring (default 2).")
    var warmup: Int?

    @Option(help: ArgumentHelp("Page-cache mode: warm (default) or cold.", valueName: "mode"))
    var mode: LaunchMode = .warm

    @Option(
        help: ArgumentHelp(
            "When a launch counts as done: \(ReadyProbe.formList(displays: false)).", valueName: "probe"),
        transform: { try ReadyProbe(parsing: $0) })
    var ready: ReadyProbe?

    @OptionGroup var activating: ActivationOptions

    @OptionGroup var timing: LaunchTimingOptions

    @Option(
        help: ArgumentHelp(
            "Run both programs only on these CPUs (e.g. 0, 1,3 or 0-2), as pyperf's --affinity; 'auto' (the default): a pilot pins them to the fastest CPU unless the launch is more than 5% faster unpinned; 'none': where the scheduler puts them, paired by the CPU they ran on.",
            valueName: "cpus|auto|none"),
        transform: { text in
            do {
                return try GateAffinityOption(parsing: text)
            } catch {
                throw ValidationError("--affinity \(error)")
            }
        })
    var affinity: GateAffinityOption?

    @Option(
        help: ArgumentHelp(
            "The interval each look takes: both (the default: sign and signed-rank at half the error each, intersected), signed-rank (Wilcoxon) or sign (the median's, assumes no symmetry).",
            valueName: "method"))
    var interval: GateInterval = .both

    @Option(help: ArgumentHelp("Set this variable for both programs (repeatable).", valueName: "name=value"))
    var env: [String] = []

    @Option(
        help: ArgumentHelp(
            "Also count each run's instructions (perf or callgrind) and judge them with a 1% threshold: regressed if either time or instructions is.",
            valueName: "source"))
    var counts: CountSource?

    @Option(
        help: ArgumentHelp(
            "After a regressed verdict, traced runs of each side for the Why (what grew); 0: no Why (default 20).",
            valueName: "runs"))
    var whyRuns: Int?

    @Flag(help: "Show the programs' output instead of discarding it.")
    var showOutput = false

    mutating func validate() throws {
        if let maxRuns { _ = try RunOptions.count(maxRuns, flag: "--max-runs", in: 20...1_000_000) }
        if let warmup { _ = try RunOptions.count(warmup, flag: "--warmup", in: 0...1000) }
        if let whyRuns { _ = try RunOptions.count(whyRuns, flag: "--why-runs", in: 0...10_000) }
        if let ready, try activating.activation() != nil, !SocketActivation.allows(ready: ready) {
            throw ValidationError("--activate \(SocketActivation.readinessRule); drop --ready \(ready)")
        }
        _ = try environment()
    }

    /// When a launch counts as done: a response with `--activate`, else
    /// `--ready`, else the exit.
    func probe() throws -> ReadyProbe {
        try activating.activation() != nil ? .response : ready ?? .exit
    }

    /// "2" or "2%" as the fraction 0.02; anything not strictly between 0
    /// and 100 percent is refused, naming it.
    static func percent(_ text: String) throws -> Double {
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = Double(number), value.isFinite, value > 0, value < 100 else {
            throw ValidationError("--threshold '\(text)': give a percentage between 0 and 100, e.g. 2 or 2%")
        }
        return value / 100
    }

    /// `--env` as a dictionary; a malformed one is bad usage.
    func environment() throws -> [String: String] {
        var environment: [String: String] = [:]
        for item in env {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw ValidationError("--env '\(item)': give NAME=VALUE")
            }
            environment[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        return environment
    }

    /// The gate's settings.
    func settings() throws -> GateSettings {
        var settings = GateSettings()
        if let threshold { settings.threshold = threshold }
        if let maxTime { settings.maxTime = maxTime }
        if let maxRuns { settings.maxRuns = maxRuns }
        if let warmup { settings.warmup = warmup }
        if let whyRuns { settings.whyRuns = whyRuns }
        if let timeout = timing.timeout { settings.timeout = timeout }
        if let grace = timing.grace { settings.grace = grace }
        settings.mode = mode
        settings.interval = interval
        switch affinity {
        case .cpus(let cpus)?: settings.affinity = cpus
        case .auto?, nil: settings.choosesAffinity = true
        case .none?: settings.choosesAffinity = false
        }
        settings.counts = counts
        settings.output = showOutput ? .inherit : .discard
        settings.catchesSignals = true
        return settings
    }
}

extension GateInterval: ExpressibleByArgument {}
