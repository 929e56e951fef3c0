import ArgumentParser
import Foundation
import LaunchBenchmark

/// `launchprof bisect`'s flags: the range, the build, and the gate's own
/// measuring flags for every step (`GateMeasuringOptions`, as `gate` has
/// them; an inconclusive step is measured again with twice `--max-time`).
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

    @OptionGroup(title: "Each step's gate") var measuring: GateMeasuringOptions

    @Option(help: ArgumentHelp("Write the answer, every step and the effect's gate as JSON to this file.", valueName: "file"))
    var exportJson: String?

    mutating func validate() throws {
        for (flag, value) in [("--good", good), ("--bad", bad), ("--build", build)] where value.trimmingCharacters(in: .whitespaces).isEmpty
        {
            throw ValidationError("\(flag) is empty")
        }
    }
}
