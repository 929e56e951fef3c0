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
            RunCommand.self, CompareCommand.self, ReportCommand.self, ProfileCommand.self, RecordCommand.self,
            ExportCommand.self, ExplainCommand.self, HistoryCommand.self,
        ]
    )

    /// As the default, except that bad usage exits with 2 (as hyperfine and
    /// most Unix tools do) instead of swift-argument-parser's EX_USAGE (64).
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
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            exit(withError: ExitCode(LaunchExitStatus.usage))
        }
    }
}
