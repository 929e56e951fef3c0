import Foundation
import LaunchProfServerTestSupport
import Testing

/// vapor-launch-sample measured by launchprof, as a user would: the
/// launchprof built at the repository's root (`swift build` there first).
@Suite("A Vapor server measured by launchprof", .serialized)
struct VaporLaunchTests: SampleLaunchTesting {
    static let sampleName = "vapor-launch-sample"

    @Test("--ready tracer and --ready port: launch complete is when the server accepts, and it is stopped after")
    func readyProbes() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = try Self.sample
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
        let sample = try Self.sample
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

    @Test("--activate: the server accepts on the socket it was started with, and the request that waited for it is timed")
    func socketActivation() throws {
        // Were the inherited socket ignored, Vapor would bind a port of its
        // own and launchprof's request would never be answered.
        let run = try runActivated()
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("first response byte"), "\(run.output)")
        #expect(run.output.contains("accepting on the inherited socket 3 ('launchprof')"), "\(run.output)")
    }

    @Test("socket-activated: a POST's body is answered, a keep-alive connection's next request too, and Connection: close ends it")
    func bodyAndKeepAlive() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try SocketActivatedSample(
            sample: try Self.sample, outputPath: directory + "/out")
        // Both requests on one connection, the second written before the
        // first is answered: it is answered after it, then the server closes.
        let response = try server.exchange(
            "POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 11\r\n\r\nhello vapor"
                + "GET /health HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        let stopped = server.stop()
        let parts = response.lowercased().components(separatedBy: "http/1.1 200 ok\r\n")
        try #require(parts.count == 3, "two responses: \(response)\n\(stopped.output)")
        #expect(parts[1].contains("connection: keep-alive") && parts[1].contains("content-length: 11"), "\(response)")
        #expect(parts[1].hasSuffix("\r\n\r\nhello vapor"), "\(response)")
        #expect(parts[2].contains("connection: close") && parts[2].hasSuffix("\r\n\r\nok\n"), "\(response)")
        #expect(parts[1].contains("date: ") && parts[2].contains("date: "), "\(response)")
        #expect(stopped.output.contains("accepting on the inherited socket 3 ('unknown')"), "\(stopped.output)")
    }

    @Test("socket-activated: a body larger than app.routes.defaultMaxBodySize is answered 413 and the connection closed")
    func bodyTooLarge() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try SocketActivatedSample(
            sample: try Self.sample, outputPath: directory + "/out")
        // 16 KiB by default: said by Content-Length, and sent without one.
        let declared = try server.exchange(
            "POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 1000000\r\n\r\n" + String(repeating: "x", count: 1000))
        let chunk = String(repeating: "y", count: 8192)
        let chunked = try server.exchange(
            "POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n"
                + String(repeating: "2000\r\n\(chunk)\r\n", count: 3) + "0\r\n\r\n")
        let health = try server.exchange("GET /health HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        let stopped = server.stop()
        #expect(declared.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"), "\(declared)\n\(stopped.output)")
        #expect(declared.lowercased().contains("connection: close"), "\(declared)")
        #expect(chunked.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"), "\(chunked)\n\(stopped.output)")
        #expect(health.hasPrefix("HTTP/1.1 200 OK\r\n"), "the server serves on: \(health)")
    }

    @Test("socket-activated with app.http.server.configuration.idleTimeout: an idle connection is closed")
    func idleConnectionClosed() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try SocketActivatedSample(
            sample: try Self.sample, outputPath: directory + "/out",
            environment: ["LP_SAMPLE_IDLE_TIMEOUT_MS": "200"])
        let answered = try server.exchange("GET /health HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        try #require(answered.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answered)")
        // Kept open, the exchange would wait out its 30 s read timeout.
        let start = Date()
        let idle = try server.exchange("")
        let waited = Date().timeIntervalSince(start)
        let stopped = server.stop()
        #expect(idle.isEmpty && waited < 15, "closed after \(waited) s: \(idle)\n\(stopped.output)")
    }

    @Test("an inherited descriptor that is a file, not a listening socket: a clear error naming it, exit 2, no hang")
    func inheritedFileRefused() throws {
        let run = try runInheritingFile()
        #expect(run.exited && run.status == 2, "\(run.output)")
        #expect(run.output.contains("cannot accept on the inherited socket 3 ('unknown')"), "\(run.output)")
    }
}
