import ArgumentParser
import LaunchBenchmark

/// `launchprof gate`'s flags: what to compare, how to measure and decide
/// (`GateMeasuringOptions`, shared with `bisect`), and where the verdict goes.
struct GateOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The base program as one quoted command, split like a shell would (never run by one); the head is the command after '--'.",
            valueName: "command"))
    var baseCommand: String?

    @Option(help: ArgumentHelp("In a git repository: the base revision, checked out and built in a worktree of its own.", valueName: "rev"))
    var base: String?

    @Option(help: ArgumentHelp("With --base: the head revision (default HEAD; uncommitted changes are not measured).", valueName: "rev"))
    var head: String?

    @Option(help: ArgumentHelp("With --base: the shell command that builds a revision, run in its worktree.", valueName: "command"))
    var build: String?

    @Option(
        help: ArgumentHelp(
            "With --base: where the revisions' worktrees are cached (default: the repository's git directory, launchprof/builds).",
            valueName: "dir"))
    var cacheDir: String?

    @OptionGroup var measuring: GateMeasuringOptions

    @Option(help: ArgumentHelp("Write the verdict, every look and every run as JSON to this file.", valueName: "file"))
    var exportJson: String?

    @Option(help: ArgumentHelp("Write the verdict as Markdown to this file.", valueName: "file"))
    var exportMarkdown: String?

    @Option(help: ArgumentHelp("Write the verdict as JUnit XML to this file.", valueName: "file"))
    var exportJunit: String?

    mutating func validate() throws {
        if baseCommand != nil, base != nil {
            throw ValidationError("give --base-command (two programs) or --base REV (two revisions), not both")
        }
        if baseCommand == nil, base == nil {
            throw ValidationError("name the base: --base-command 'OLD ARGS' or --base REV --build 'COMMAND'")
        }
        if base != nil, build == nil { throw ValidationError("--base REV needs --build 'COMMAND' to build each revision") }
        if base == nil, head != nil || build != nil || cacheDir != nil {
            throw ValidationError("--head, --build and --cache-dir go with --base REV")
        }
    }
}
