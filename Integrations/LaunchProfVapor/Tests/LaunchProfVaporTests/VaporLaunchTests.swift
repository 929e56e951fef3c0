import Foundation
import Testing

/// vapor-launch-sample measured by launchprof, as a user would: the
/// launchprof built at the repository's root (`swift build` there first).
@Suite("A Vapor server measured by launchprof", .serialized)
struct VaporLaunchTests {
    static func product(_ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run `swift build` there first")
        return path
    }

    /// This package's products, beside the test bundle.
    static var binDirectory: URL { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent() }

    /// The repository's launchprof (../../.build/debug).
    static var launchprof: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            return try product("launchprof", in: root.appendingPathComponent(".build/debug"))
        }
    }

    struct Run {
        var status: Int32
        var output: String
    }

    func launchprof(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.launchprof)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "/vapor-launch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("--ready tracer and --ready port: launch complete is when the server accepts, and it is stopped after")
    func readyProbes() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = try Self.product("vapor-launch-sample", in: Self.binDirectory)
        let tracer = try launchprof(["run", "--ready", "tracer", "-r", "3", "-w", "1", "--", sample], in: directory)
        #expect(tracer.status == 0, "\(tracer.output)")
        #expect(tracer.output.contains("process entry"), "LaunchProf's marks are measured: \(tracer.output)")
        // Vapor's own serve command takes the port.
        let port = 20_000 + Int((getpid() + 7) % 20_000)
        let probe = try launchprof(
            ["run", "--ready", "port:\(port)", "-r", "3", "-w", "1", "--", sample, "serve", "--port", "\(port)"],
            in: directory)
        #expect(probe.status == 0, "\(probe.output)")
    }

    @Test("explain with a recorded trace: the critical path is the sample's two intervals, on the pool thread that ran them")
    func explainCriticalPath() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = try Self.product("vapor-launch-sample", in: Self.binDirectory)
        let record = try launchprof(
            ["record", "--quiet", "--ready", "tracer", "-o", "vapor.lptrace", "--", sample], in: directory,
            environment: ["LP_SAMPLE_SLOW_ROUTES_MS": "15"])
        try #require(record.status == 0, "\(record.output)")
        let run = try launchprof(["run", "--ready", "tracer", "-r", "3", "--export-json", "r.json", "--", sample], in: directory)
        try #require(run.status == 0, "\(run.output)")
        let explain = try launchprof(["explain", "r.json", "--trace", "vapor.lptrace"], in: directory)
        #expect(explain.status == 0, "\(explain.output)")
        let path = explain.output.split(separator: "\n").first { $0.contains("critical path") }
        #expect(path?.contains("load config") == true && path?.contains("register routes") == true, "\(explain.output)")
        #expect(explain.output.contains("'register routes' is the largest step on the path"), "\(explain.output)")
    }

    @Test("--activate: Vapor cannot accept on an inherited socket, and the sample says so and exits instead of leaving the request waiting")
    func socketActivationRefused() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = try Self.product("vapor-launch-sample", in: Self.binDirectory)
        let run = try launchprof(
            ["run", "--activate", "tcp:0", "--http-get", "/health", "-r", "2", "-w", "1", "--show-output", "--", sample],
            in: directory)
        #expect(run.status != 0, "\(run.output)")
        #expect(run.output.contains("Vapor 4 cannot accept on a socket it did not bind"), "\(run.output)")
        #expect(run.output.contains("exited with status 1"), "\(run.output)")
    }
}
