import Foundation
import Testing

/// hummingbird-launch-sample measured by launchprof, as a user would: the
/// launchprof built at the repository's root (`swift build` there first).
@Suite("A Hummingbird server measured by launchprof", .serialized)
struct HummingbirdLaunchTests {
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
        let path = NSTemporaryDirectory() + "/hummingbird-launch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("--ready tracer and --ready port: the server's launch complete is when it accepts, and it is stopped after")
    func readyProbes() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = try Self.product("hummingbird-launch-sample", in: Self.binDirectory)
        let tracer = try launchprof(
            ["run", "--ready", "tracer", "-r", "3", "-w", "1", "--export-json", "t.json", "--", sample], in: directory)
        #expect(tracer.status == 0, "\(tracer.output)")
        #expect(tracer.output.contains("process entry"), "LaunchProf's marks are measured: \(tracer.output)")
        let port = 20_000 + Int(getpid() % 20_000)
        let probe = try launchprof(
            ["run", "--ready", "port:\(port)", "-r", "3", "-w", "1", "--", sample, "--port", "\(port)"], in: directory)
        #expect(probe.status == 0, "\(probe.output)")
    }

    @Test("15 ms of CPU inside 'build router': the Why names it on the launch path, on CPU, with most of the change")
    func injectedRegression() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = try Self.product("hummingbird-launch-sample", in: Self.binDirectory)
        let before = try launchprof(["run", "--ready", "tracer", "-r", "15", "--save-baseline", "before", "--", sample], in: directory)
        try #require(before.status == 0, "\(before.output)")
        let after = try launchprof(
            ["run", "--ready", "tracer", "-r", "15", "--baseline", "before", "--", sample], in: directory,
            environment: ["LP_SAMPLE_SLOW_ROUTER_MS": "15"])
        let why = after.output.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("Why") }.dropFirst()
        let first = try #require(why.first, "\(after.output)")
        // The interval is named first, with most of the change (its share,
        // "(NN% of +X ms", at least half); the words around it belong to
        // the attribution, which may say more about it.
        #expect(first.contains("interval 'build router'") && first.contains("launch path"), "\(after.output)")
        let share = first.split(separator: "(").dropFirst().compactMap { Int($0.prefix { $0 != "%" }) }.first
        #expect((share ?? 0) >= 50, "most of the change is in 'build router': \(after.output)")
        #expect(why.contains { $0.contains("on CPU") }, "\(after.output)")
        // Its steps run on the main thread, but the server starts on its event
        // loops: the process's CPU time is the path's, and none of the
        // injected work is called waiting.
        #expect(!after.output.contains("other threads") && !after.output.contains("spent waiting"), "\(after.output)")
        let explainTrace = try launchprof(
            ["record", "--quiet", "--ready", "tracer", "-o", "server.lptrace", "--", sample], in: directory,
            environment: ["LP_SAMPLE_SLOW_ROUTER_MS": "15"])
        try #require(explainTrace.status == 0, "\(explainTrace.output)")
        _ = try launchprof(["run", "--ready", "tracer", "-r", "3", "--export-json", "r.json", "--", sample], in: directory)
        let explain = try launchprof(["explain", "r.json", "--trace", "server.lptrace"], in: directory)
        #expect(explain.output.contains("'build router' is the largest step on the path"), "\(explain.output)")
    }

    @Test("--activate: the server accepts on the socket it was started with, and the request that waited for it is timed")
    func socketActivation() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = try Self.product("hummingbird-launch-sample", in: Self.binDirectory)
        // Were the inherited socket ignored, the server would bind a port of
        // its own and launchprof's request would never be answered.
        let run = try launchprof(
            ["run", "--activate", "tcp:0", "--http-get", "/health", "-r", "3", "-w", "1", "--show-output", "--", sample],
            in: directory)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("first response byte"), "\(run.output)")
        #expect(run.output.contains("accepting on the inherited socket 3 ('launchprof')"), "\(run.output)")
    }

    @Test("an inherited descriptor that is a file, not a listening socket: a clear error naming it, exit 2, no hang")
    func inheritedFileRefused() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = try Self.product("hummingbird-launch-sample", in: Self.binDirectory)
        let file = directory + "/not-a-socket"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: file))
        // LISTEN_PID must be the server's own pid: the shell's, kept by exec.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "export LISTEN_PID=$$ LISTEN_FDS=1; exec \"$0\" 3<\"$1\"", sample, file]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let watchdog = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.cancel()
        #expect(process.terminationReason == .exit && process.terminationStatus == 2, "\(output)")
        #expect(output.contains("cannot accept on the inherited socket 3 ('unknown')"), "\(output)")
    }
}
