import Foundation
import Glibc
import LaunchSupport

/// Runs a helper tool (llvm-symbolizer) to completion under a time limit.
///
/// Its input comes from a file and its output and errors go to files, not
/// pipes: neither side can fill a pipe and wait for the other, however much
/// either writes. The tool gets its own process group, so when it outlives
/// the limit it is killed with anything it started, and it is always reaped:
/// nothing is left behind.
package struct ToolProcess {
    /// How the tool ended.
    package enum End: Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Still running at the time limit: killed.
        case timedOut
    }

    package var end: End
    package var output: Data
    package var errorOutput: Data
    /// The interrupt fired while it ran: it was killed with its group.
    package var interrupted = false

    /// Runs `executable` with `arguments`, `input` as its standard input and
    /// the harness's environment, for at most `timeout`, through `spawner`,
    /// the command's (the one its measured processes go through; a command
    /// that passes none gets a spawner, and its process, for this tool
    /// alone); in `workingDirectory` (nil: the harness's own), stopped by
    /// `interrupt` when it fires.
    package static func run(
        _ executable: String, arguments: [String], input: Data, timeout: Duration, workingDirectory: String? = nil,
        interrupt: InterruptMonitor? = nil, spawner: Spawner = Spawner()
    ) throws(LaunchError) -> ToolProcess {
        let directory: String
        do {
            directory = try PrivateDirectory.make(in: NSTemporaryDirectory(), prefix: "launchprof-tool")
        } catch {
            throw .system(error, program: executable)
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inputPath = directory + "/input", outputPath = directory + "/output", errorPath = directory + "/errors"
        guard FileManager.default.createFile(atPath: inputPath, contents: input) else {
            throw .system(SystemCallError(call: "write", subject: inputPath, errno: errno), program: executable)
        }
        let observed = try spawner.run(
            RunRequest(
                target: LaunchTarget(name: executable, arguments: [executable] + arguments, workingDirectory: workingDirectory),
                timeout: timeout, output: .files(stdout: outputPath, stderr: errorPath), input: inputPath),
            interrupt: interrupt)
        let end: End
        switch observed.exit {
        case .exited(let code): end = .exited(code)
        case .signaled(let signal): end = .signaled(signal)
        default: end = .timedOut
        }
        let output = (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data()
        let errorOutput = (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data()
        return ToolProcess(end: end, output: output, errorOutput: errorOutput, interrupted: observed.interrupted)
    }
}
