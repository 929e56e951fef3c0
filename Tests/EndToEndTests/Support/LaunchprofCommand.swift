import Foundation
import LaunchProfTestSupport

/// Runs the built `launchprof` with `arguments` in `directory` (a scratch
/// folder by default) and returns what it printed and its status: the one
/// way the end-to-end tests call the CLI.
func launchprof(
    _ arguments: [String], in directory: String = NSTemporaryDirectory(), environment: [String: String] = [:],
    timeout: TimeInterval = 300
) throws -> CommandRun {
    try CommandRun.run(try Products.path("launchprof"), arguments, environment: environment, workingDirectory: directory, timeout: timeout)
}
