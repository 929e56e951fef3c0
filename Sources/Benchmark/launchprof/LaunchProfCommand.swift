import ArgumentParser
import Foundation
import LaunchBenchmark

@main
struct LaunchProfCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launchprof",
        abstract: "Launch-performance profiling for Linux executables and Swift programs.",
        version: "launchprof \(launchprofVersion) (commit \(launchprofCommit))",
        subcommands: [
            RunCommand.self, GateCommand.self, CompareCommand.self, ReportCommand.self, ProfileCommand.self, RecordCommand.self,
            ExportCommand.self, ExplainCommand.self, HistoryCommand.self, BisectCommand.self,
        ]
    )

    /// As the default, except that bad usage exits with 2 (as hyperfine and
    /// most Unix tools do) instead of swift-argument-parser's EX_USAGE (64),
    /// and that help, version and errors are written through `Output` (whose
    /// writer never traps) rather than swift-argument-parser's stdio.
    static func main() async {
        HarnessSignals.prepare()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            var status = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                // Help and version are what was asked for: standard output.
                if status == .success { Output.line(message) } else { Output.standardError(message + "\n") }
            }
            if status == .validationFailure { status = ExitCode(LaunchExitStatus.usage) }
            Glibc.exit(status.rawValue)
        }
    }
}
