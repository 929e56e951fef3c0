import Foundation

extension SampleLaunchTesting {
    /// The executable `name` in `directory`, or a `MissingProductError`.
    public static func product(_ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else { throw MissingProductError(path: path) }
        return path
    }

    /// The package's products, beside the test bundle.
    public static var binDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The package's sample (`sampleName`), built beside the test bundle.
    public static var sample: String {
        get throws { try product(sampleName, in: binDirectory) }
    }

    /// The repository's launchprof (.build/debug at its root, four folders
    /// above Integrations/LaunchProfServerSupport/Sources/...).
    public static var launchprof: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            return try product("launchprof", in: root.appendingPathComponent(".build/debug"))
        }
    }

    /// Runs the repository's launchprof with `arguments` in `directory`, its
    /// environment this process's with `environment` over it.
    public func launchprof(
        _ arguments: [String], in directory: String, environment: [String: String] = [:]
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.launchprof)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        return try Self.output(of: process, timeout: nil)
    }

    /// A new, empty folder in the temporary directory, named after the sample.
    public func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "/\(Self.sampleName)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// launchprof's `run --activate tcp:0 --http-get /health` of the sample
    /// (3 runs, 1 warm-up, its output shown): the sample must serve on the
    /// socket it was started with, or the request is never answered.
    public func runActivated() throws -> ProcessResult {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try launchprof(
            ["run", "--activate", "tcp:0", "--http-get", "/health", "-r", "3", "-w", "1", "--show-output", "--", Self.sample],
            in: directory)
    }

    /// Starts the sample as socket-activated (`LISTEN_FDS=1`, `LISTEN_PID` its
    /// own pid: the shell's, kept by exec) with a file, not a listening
    /// socket, as its descriptor 3; ended after 60 s if it hangs.
    public func runInheritingFile() throws -> ProcessResult {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/not-a-socket"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "export LISTEN_PID=$$ LISTEN_FDS=1; exec \"$0\" 3<\"$1\"", try Self.sample, file]
        return try Self.output(of: process, timeout: 60)
    }

    /// Runs `process` to its end (terminated after `timeout` seconds, if
    /// given), its standard output and error read together.
    static func output(of process: Process, timeout: Int?) throws -> ProcessResult {
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let watchdog = DispatchWorkItem { process.terminate() }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeout), execute: watchdog) }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return ProcessResult(
            status: process.terminationStatus, exited: process.terminationReason == .exit,
            output: String(decoding: data, as: UTF8.self))
    }
}
