import ArgumentParser
import LaunchBenchmark

/// The flags of `launchprof run`. Names follow hyperfine where the meaning is
/// the same.
struct RunOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "Run each command exactly this many times (no adaptive stopping).")
    var runs: Int?

    @Option(name: [.short, .long], help: "Unmeasured runs per command and mode before measuring (default 3).")
    var warmup: Int?

    @Option(name: [.customShort("m"), .long], help: "Adaptive stopping: at least this many measured runs.")
    var minRuns: Int?

    @Option(name: [.customShort("M"), .long], help: "Adaptive stopping: at most this many measured runs.")
    var maxRuns: Int?

    @Option(
        help: "Adaptive stopping: keep measuring at least this many seconds.",
        transform: { try Self.seconds($0, flag: "--min-time", allowZero: true) })
    var minTime: Duration?

    @Option(help: ArgumentHelp("Page-cache mode, repeatable to run both: cold or warm.", valueName: "mode"))
    var mode: [LaunchMode] = []

    @Option(
        help: ArgumentHelp(
            "When a launch counts as done: \(ReadyProbe.formList(meanings: true)).",
            valueName: "probe"),
        transform: { try ReadyProbe(parsing: $0) })
    var ready: ReadyProbe?

    @OptionGroup var activating: ActivationOptions

    @OptionGroup var timing: LaunchTimingOptions

    @Option(help: ArgumentHelp("Also evict this file or directory before cold runs (repeatable).", valueName: "path"))
    var evict: [String] = []

    @Flag(help: "Cold runs drop the whole page cache (needs root and a writable /proc/sys/vm/drop_caches).")
    var dropCaches = false

    @Option(name: [.customShort("n"), .long], help: "Name of the next command in reports (repeatable, in command order).")
    var commandName: [String] = []

    @Option(help: "Report the others relative to the command with this name.")
    var reference: String?

    @Flag(help: "Show the commands' output instead of discarding it.")
    var showOutput = false

    @Option(help: ArgumentHelp("Save each run's output to a file in this directory.", valueName: "dir"))
    var outputDir: String?

    @Flag(help: "Run each command string through /bin/sh -c instead of splitting it into words.")
    var shell = false

    @Option(help: ArgumentHelp("Write every run and the summary as JSON to this file.", valueName: "file"))
    var exportJson: String?

    @Option(help: ArgumentHelp("Write the summary table as Markdown to this file.", valueName: "file"))
    var exportMarkdown: String?

    @Option(
        help: ArgumentHelp(
            "Write the results as Prometheus metrics (text exposition format) to this file, e.g. for node_exporter's textfile collector.",
            valueName: "file"))
    var exportOpenmetrics: String?

    @Option(
        help: ArgumentHelp(
            "Push the results to this Prometheus Pushgateway (one group per target, mode and machine; after the files are written).",
            valueName: "url"))
    var pushGateway: String?

    @Option(
        help: ArgumentHelp(
            "A label recorded in the results and on every pushed or exported series (repeatable); commit, branch and runner are read from CI variables.",
            valueName: "name=value"))
    var label: [String] = []

    @Option(
        help: ArgumentHelp(
            "Read targets and budgets from this YAML file (default: ./launchprof.yml when no command is given).",
            valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Run only this target of the config file (repeatable).", valueName: "name"))
    var target: [String] = []

    @Option(
        help: ArgumentHelp(
            "Save the results as a baseline: .launchprof/baselines/NAME.json.", valueName: "name"))
    var saveBaseline: String?

    @Option(
        help: ArgumentHelp(
            "Compare with a saved baseline (a name, or a results JSON file) and fail on regressions.", valueName: "name"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "After ready, also time a lifecycle phase (repeatable): resume (SIGTSTP, stopped, SIGCONT, LaunchProf's resumed record) or shutdown (SIGTERM to exit).",
            valueName: "phase"))
    var measure: [LifecycleMeasure] = []

    @Flag(
        inversion: .prefixedNo,
        help:
            "Trace every measured run of a LaunchProf program (written after ready, so time to ready is unchanged): its intervals are summarised in the results and attributed when compared with a baseline. Default: on for --ready tracer targets."
    )
    var traceRuns: Bool?

    @Option(
        help: ArgumentHelp(
            "The X display for --ready window/frame: virtual (a private Xvfb launchprof starts and stops) or a display name such as :0 (default: $DISPLAY).",
            valueName: "display"),
        transform: { try DisplayChoice(parsing: $0) })
    var display: DisplayChoice?

    @Option(
        help: ArgumentHelp(
            "Count each measured launch's events to ready: perf (perf_event_open on the launched tree: instructions, cycles, cache and branch misses where the machine has hardware counters; task clock, page faults, context switches everywhere) or callgrind (instructions under Valgrind, to each process's exit: slow, but the same on any machine). The results say which counters were measured and why others were not.",
            valueName: "perf|callgrind"))
    var counts: CountSource?

    @Option(
        help: ArgumentHelp(
            "A budget every target must meet: METRIC<=LIMIT, e.g. instructions<=4.5M, wall_to_ready<=20ms, max_rss<=40MiB (the median; repeatable). A config file states budgets per target.",
            valueName: "metric<=limit"))
    var budget: [String] = []

    @Flag(
        inversion: .prefixedNo,
        help:
            "Measure launchprof's calibration workload (true: exec, dynamic loading, page faults) interleaved with the targets and compare times with a baseline relative to it, so the machine's drift is reported as drift, not as a change. Default: on when a baseline is compared or saved and no --reference is named."
    )
    var calibrate: Bool?

    @Option(help: ArgumentHelp("Write a self-contained HTML report with charts to this file.", valueName: "file"))
    var report: String?

    @Option(
        help: ArgumentHelp(
            "After measuring, time the dynamic loader on each shared library (map, relocate, init) over this many launches "
                + "per target and mode with liblaunchprof-audit.so (not measured runs); --export-json keeps it, --report "
                + "and 'explain --loader' show it, and a regression's attribution names the libraries whose loader time changed.",
            valueName: "n"))
    var loader: Int?

    @OptionGroup var profiling: ProfileOptions

    mutating func validate() throws {
        let counts = 1...InputNumber.maximumCount
        if let runs { _ = try Self.count(runs, flag: "--runs", in: counts) }
        if let warmup { _ = try Self.count(warmup, flag: "--warmup", in: 0...InputNumber.maximumCount) }
        if let minRuns { _ = try Self.count(minRuns, flag: "--min-runs", in: counts) }
        if let maxRuns { _ = try Self.count(maxRuns, flag: "--max-runs", in: counts) }
        if let minRuns, let maxRuns, minRuns > maxRuns {
            throw ValidationError("--min-runs (\(minRuns)) is more than --max-runs (\(maxRuns))")
        }
        if runs != nil, minRuns != nil || maxRuns != nil || minTime != nil {
            throw ValidationError("--runs fixes the run count; drop --min-runs, --max-runs and --min-time")
        }
        if showOutput, outputDir != nil { throw ValidationError("--show-output and --output-dir exclude each other") }
        if try activation() != nil, !SocketActivation.allows(ready: ready), let ready {
            throw ValidationError("--activate \(SocketActivation.readinessRule); drop --ready \(ready)")
        }
        if let loader { _ = try Self.count(loader, flag: "--loader", in: 1...1000) }
    }

    /// `--mode` without repeats; nil when not given.
    var modes: [LaunchMode]? {
        var unique: [LaunchMode] = []
        for mode in mode where !unique.contains(mode) { unique.append(mode) }
        return unique.isEmpty ? nil : unique
    }

    /// `--activate` with `--request` or `--http-get`, parsed; nil when not given.
    func activation() throws -> SocketActivation? { try activating.activation() }

    /// `--budget METRIC<=LIMIT`, for each of `targets`.
    func budgets(for targets: [LaunchTarget]) throws -> [Budget] {
        var budgets: [Budget] = []
        for text in budget {
            guard let separator = text.range(of: "<=") else {
                throw ValidationError("--budget '\(text)': expected METRIC<=LIMIT, e.g. instructions<=4.5M")
            }
            let name = text[..<separator.lowerBound].trimmingCharacters(in: .whitespaces)
            let limit = text[separator.upperBound...].trimmingCharacters(in: .whitespaces)
            guard let metric = Metric(key: Metric.aliases[name] ?? name) else {
                throw ValidationError("--budget '\(text)': '\(name)' is not a metric (metrics: \(Metric.configNames))")
            }
            for target in targets {
                do {
                    budgets.append(try Budget(target.name, metric, limit))
                } catch {
                    throw ValidationError("--budget '\(text)': \(error)")
                }
            }
        }
        return budgets
    }

    /// What the flags set, to replace a config file's settings.
    func overrides() throws -> RunOverrides {
        RunOverrides(
            modes: modes, warmup: warmup, stopping: try stopping(),
            timeout: timing.timeout, ready: ready, evictPaths: evict,
            activation: try activation())
    }

    /// The engine's settings these flags ask for (the gate's flags add theirs).
    func settings() throws -> BenchmarkSettings {
        var settings = BenchmarkSettings()
        if let timeout = timing.timeout { settings.timeout = timeout }
        if let grace = timing.grace { settings.grace = grace }
        settings.output = outputPlan
        settings.measure = measure
        settings.traceRuns = traceRuns
        settings.display = display
        settings.counts = counts
        settings.calibrate = calibrate
        settings.dropCaches = dropCaches
        settings.reference = reference
        settings.baseline = baseline.map { .saved($0) }
        settings.saveBaseline = saveBaseline
        settings.catchesSignals = true
        settings.loaderLaunches = loader
        settings.profiling = profiling.settings
        return settings
    }

    /// The stopping rule the run-count flags ask for; nil when none was given.
    func stopping() throws -> StoppingRule? {
        guard runs != nil || minRuns != nil || maxRuns != nil || minTime != nil else { return nil }
        if let runs { return .fixed(runs) }
        let defaults = StoppingRule()
        let minimum = minRuns ?? defaults.minRuns
        return StoppingRule(
            minRuns: minimum, maxRuns: max(minimum, maxRuns ?? defaults.maxRuns),
            minTime: minTime ?? defaults.minTime)
    }

    /// Where run output goes.
    var outputPlan: OutputPlan {
        if let outputDir { return .directory(outputDir) }
        return showOutput ? .inherit : .discard
    }

    /// A number of seconds from `flag`'s text, through the harness's one
    /// validated parser (no trap on inf, NaN or huge values), converted once,
    /// as the flag is parsed; bad values exit 2.
    static func seconds(_ text: String, flag: String, allowZero: Bool = false) throws -> Duration {
        guard let value = Double(text) else { throw ValidationError("\(flag) '\(text)' is not a number of seconds") }
        do {
            return try InputNumber.duration(seconds: value, of: flag, allowZero: allowZero)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// A count from `flag`, in `range`; bad values exit 2.
    static func count(_ value: Int, flag: String, in range: ClosedRange<Int>) throws -> Int {
        do {
            return try InputNumber.count(value, of: flag, in: range)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension LaunchMode: ExpressibleByArgument {}
extension LifecycleMeasure: ExpressibleByArgument {}
extension CountSource: ExpressibleByArgument {
    public init?(argument: String) { self.init(flag: argument) }
    public static var allValueStrings: [String] { ["perf", "callgrind"] }
}
