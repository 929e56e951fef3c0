import Foundation
import Glibc
import Synchronization
import Testing

/// Built products and scratch paths for end-to-end tests.
enum Products {
    /// Where SwiftPM put the products: beside the test binary.
    static let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent()

    /// The path of a built executable product, or a test failure saying to build it.
    static func path(_ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run `swift build` first")
        return path
    }

    /// A fresh path in the temporary directory (nothing is created).
    static func temporaryPath(_ name: String) -> String {
        "\(NSTemporaryDirectory())/launchprof-e2e-\(getpid())-\(UUID().uuidString.prefix(8))-\(name)"
    }
}

/// One finished run of a child process: exit status and its output.
struct CommandRun {
    var status: Int32
    var standardOutput: String
    var standardError: String

    /// Runs `executable` to completion, killing it if it outlives `timeout`,
    /// so no test leaves a child behind.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        workingDirectory: String? = nil, timeout: TimeInterval = 120
    ) throws -> CommandRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
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
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: errorData.withLock { String(decoding: $0, as: UTF8.self) })
    }
}
