import ArgumentParser
import Foundation
import LaunchBenchmark

/// `launchprof bisect`'s flags: the range, the build, and the gate's own
/// measuring flags for every step.
struct BisectOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The revision known to be fast (an ancestor of --bad).", valueName: "rev"))
    var good: String

    @Option(help: ArgumentHelp("The revision known to be slow.", valueName: "rev"))
    var bad: String

    @Option(help: ArgumentHelp("The shell command that builds a revision, run in its worktree.", valueName: "command"))
    var build: String

    @Option(
        help: ArgumentHelp(
            "Where the revisions' worktrees are built (default: the repository's git directory, launchprof/builds).",
            valueName: "dir"))
    var cacheDir: String?

    @Flag(help: "Keep the worktrees this bisect built in the cache, for a later gate or bisect (default: remove them at the end).")
    var keepBuilds = false

    @Flag(help: "Do not gate the first slow commit against its parent; take its effect from the step that decided it.")
    var noEffectGate = false

    @Option(
        help: ArgumentHelp(
            "The change that matters, in percent (2 or 2%): a commit is slow when regressed beyond +this against good (default 3).",
            valueName: "percent"),
        transform: { try GateOptions.percent($0) })
    var threshold: Double?

    @Option(
        help: "Each step's measuring budget in seconds; an inconclusive step is measured again with twice it (default 120).",
        transform: { try RunOptions.seconds($0, flag: "--max-time") })
    var maxTime: Duration?

    @Option(help: "The most measured runs per side in each step (default 10000).")
    var maxRuns: Int?

    @Option(name: [.short, .long], help: "Unmeasured runs per side before each step measures (default 2).")
    var warmup: Int?

    @Option(help: ArgumentHelp("Page-cache mode: warm (default) or cold.", valueName: "mode"))
    var mode: LaunchMode = .warm

    @Option(
        help: ArgumentHelp("When a launch counts as done: \(ReadyProbe.formList(displays: false)).", valueName: "probe"),
        transform: { try ReadyProbe(parsing: $0) })
    var ready: ReadyProbe?

    @OptionGroup var timing: LaunchTimingOptions

    @Option(help: ArgumentHelp("Set this variable for every launch (repeatable).", valueName: "name=value"))
    var env: [String] = []

    @Option(
        help: ArgumentHelp("Also count each run's instructions (perf or callgrind) in every step.", valueName: "source"))
    var counts: CountSource?

    @Flag(help: "Show the programs' output instead of discarding it.")
    var showOutput = false

    @Option(help: ArgumentHelp("Write the answer, every step and the effect's gate as JSON to this file.", valueName: "file"))
    var exportJson: String?

    mutating func validate() throws {
        for (flag, value) in [("--good", good), ("--bad", bad), ("--build", build)] where value.trimmingCharacters(in: .whitespaces).isEmpty
        {
            throw ValidationError("\(flag) is empty")
        }
        if let maxRuns { _ = try RunOptions.count(maxRuns, flag: "--max-runs", in: 20...1_000_000) }
        if let warmup { _ = try RunOptions.count(warmup, flag: "--warmup", in: 0...1000) }
        _ = try environment()
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

    /// Every step's gate settings.
    func settings() -> GateSettings {
        var settings = GateSettings()
        if let threshold { settings.threshold = threshold }
        if let maxTime { settings.maxTime = maxTime }
        if let maxRuns { settings.maxRuns = maxRuns }
        if let warmup { settings.warmup = warmup }
        if let timeout = timing.timeout { settings.timeout = timeout }
        if let grace = timing.grace { settings.grace = grace }
        settings.mode = mode
        settings.counts = counts
        settings.output = showOutput ? .inherit : .discard
        settings.catchesSignals = true
        return settings
    }
}
