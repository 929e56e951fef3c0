import Foundation
import Glibc
import Synchronization
import Testing

/// One finished run of a child process: exit status and its output. The
/// one way the tests run a helper program (a compiler, a tool, a sample).
public struct CommandRun: Sendable {
    /// The exit status, or the signal that ended it (Foundation's terminationStatus).
    public var status: Int32
    /// The child's pid.
    public var pid: Int32
    /// What it wrote to standard output and standard error.
    public var standardOutput: String
    public var standardError: String

    /// Runs `executable` to completion, killing it if it outlives `timeout`,
    /// so no test leaves a child behind. The environment is this process's
    /// with `environment` over it, less the variables `removing` accepts.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        removing: (String) -> Bool = { _ in false }, workingDirectory: String? = nil, timeout: TimeInterval = 120
    ) throws -> CommandRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !removing($0.key) }.merging(environment) { $1 }
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
        let errorData = Mutex(Data())
        let errorDone = DispatchSemaphore(value: 0)
        Thread {
            errorData.withLock { $0 = error.fileHandleForReading.readDataToEndOfFile() }
            errorDone.signal()
        }.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorDone.wait()
        process.waitUntilExit()
        watchdog.cancel()
        return CommandRun(
            status: process.terminationStatus, pid: process.processIdentifier,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: errorData.withLock { String(decoding: $0, as: UTF8.self) })
    }
}
