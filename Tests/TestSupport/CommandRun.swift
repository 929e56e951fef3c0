import Foundation
import Glibc
import Synchronization
import Testing

/// Built products and scratch paths, for every test target.
public enum Products {
    /// Where SwiftPM put the products: beside the test binary.
    public static let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent()

    /// The path of a built executable product, or a test failure saying to build it.
    public static func path(_ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run `swift build` first")
        return path
    }

    /// A fresh path in the temporary directory (nothing is created).
    public static func temporaryPath(_ name: String) -> String {
        "\(NSTemporaryDirectory())/launchprof-e2e-\(getpid())-\(UUID().uuidString.prefix(8))-\(name)"
    }
}

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

/// Compiles C programs for tests with the system's `cc`.
public enum CCompiler {
    /// Compiles `source` (written to `binary`.c, then removed) into `binary`
    /// with `flags` (after the sources: libraries come last); a test failure
    /// quoting cc's errors when it fails.
    @discardableResult
    public static func compile(
        _ source: String, to binary: String, flags: [String] = [], optimization: String = "-O1", debugInfo: Bool = true,
        sources: [String] = []
    ) throws -> String {
        let sourcePath = binary + ".c"
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        defer { unlink(sourcePath) }
        let arguments = [optimization] + (debugInfo ? ["-g"] : []) + ["-o", binary, sourcePath] + sources + flags
        let run = try CommandRun.run("/usr/bin/cc", arguments)
        try #require(run.status == 0, "cc failed on \(binary).c: \(run.standardError)")
        return binary
    }
}

/// A directory of the test's own, removed with everything in it when the
/// test is done (mkdtemp: mode 0700, a name no one can predict).
public final class ScratchDirectory: @unchecked Sendable {
    /// Its path.
    public let path: String

    /// Makes `base/prefix-XXXXXX` (the temporary directory by default; a
    /// disk-backed one such as /var/tmp where tmpfs would not do).
    public init(prefix: String = "launchprof-test", in base: String = NSTemporaryDirectory()) throws {
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template), "cannot create a temporary directory in \(base)")
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` in it.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// The text of `name` in it.
    public func read(_ name: String) throws -> String { try String(contentsOfFile: file(name), encoding: .utf8) }

    /// Compiles `source` with `cc` into an executable named `name` in it.
    @discardableResult
    public func compile(_ name: String, _ source: String, flags: [String] = []) throws -> String {
        try CCompiler.compile(source, to: file(name), flags: flags)
    }
}
