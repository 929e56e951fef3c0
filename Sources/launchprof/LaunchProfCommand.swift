import ArgumentParser
import LaunchProfHarness

@main
struct LaunchProfCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launchprof",
        abstract: "Launch-performance profiling for Linux executables and Swift programs.",
        version: launchprofVersion,
        subcommands: [RunCommand.self, RecordCommand.self, ExportCommand.self]
    )
}
