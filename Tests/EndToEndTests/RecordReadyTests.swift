import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof record --ready PROBE`: a server recorded until ready, then
/// stopped as `run` stops it, its trace kept.
@Suite("launchprof record --ready", .serialized)
struct RecordReadyTests {
    /// Whether a process whose command line names `marker` is still alive.
    func survivor(_ marker: String) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.contains { entry in
            guard Int32(entry) != nil, let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(marker)
        }
    }

    @Test("--ready port: the sample server is recorded to launch complete, stopped, and leaves nothing behind")
    func portProbe() throws {
        let scratch = try ScratchDirectory()
        let port = try LocalPort.free()
        let record = try launchprof(
            [
                "record", "--quiet", "--ready", "port:\(port)", "-o", "server.lptrace", "--", try Products.path("lp-sample-server"),
                "--port", "\(port)",
            ], in: scratch.path, timeout: 60)
        #expect(record.status == 0, "\(record.standardError)")
        #expect(record.standardError.contains("stopped by launchprof after ready"), "\(record.standardError)")
        let trace = try TraceReader.read(path: scratch.file("server.lptrace"))
        #expect(trace.header.launchCompleteNanoseconds != nil)
        #expect(trace.events.contains { $0.kind == .milestone && $0.name == "listening" })
        #expect(!survivor("--port\u{0}\(port)"), "the server was stopped")
    }

    @Test("--ready notify: the async server's trace has its path on the pool")
    func notifyProbe() throws {
        let scratch = try ScratchDirectory()
        let record = try launchprof(
            ["record", "--quiet", "--ready", "notify", "-o", "async.lptrace", "--", try Products.path("lp-sample-async-server")],
            in: scratch.path, timeout: 60)
        #expect(record.status == 0, "\(record.standardError)")
        let trace = try TraceReader.read(path: scratch.file("async.lptrace"))
        let path = try #require(LaunchCriticalPath(trace: trace))
        // The awaited steps end the path; 'warm cache', which nobody awaits,
        // is on it only when a busy machine ran it to its end before 'load
        // config' began (then the path's thread did wait, for a core).
        // A trace has no edge for an await, and a thread outside its
        // intervals is taken to wait for whatever ended last
        // (LaunchCriticalPath). So when a loaded machine ran 'warm cache' to
        // its end between 'load config' and 'build router' (stop 57's
        // clean-clone CI run, 6 µs before; 1 in 10 quiet runs here), the walk
        // names it before 'build router', as its rule says. When it ended
        // after 'build router', the path may end in it, on launch complete's
        // thread or across threads (CI runs under load hit both): nothing in
        // the trace tells it from an awaited step.
        let order = try #require(AsyncSamplePathOrder(trace: trace), "no 'load config' or 'build router'")
        withKnownIssue(
            "'warm cache' ended after 'build router': the trace cannot tell it was not awaited", isIntermittent: true
        ) {
            #expect(Array(path.leaves.map(\.interval.name).suffix(2)) == [order.beforeRouter, "build router"], "\(path.leaves)")
        } when: {
            order.isAmbiguous
        }
    }

    @Test("the async server accepts on the socket it was started with: run --activate times the request that waited")
    func activatedAsyncServer() throws {
        let scratch = try ScratchDirectory()
        let run = try launchprof(
            [
                "run", "--activate", "tcp:0", "-r", "3", "-w", "1", "--export-json", "r.json", "--",
                try Products.path("lp-sample-async-server"),
            ],
            in: scratch.path, timeout: 120)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("first response byte"), "\(run.standardOutput)")
    }

    @Test("bad --ready and --grace are named; a program that never gets ready is stopped and explained")
    func badInput() throws {
        let scratch = try ScratchDirectory()
        let server = try Products.path("lp-sample-server")
        let probe = try launchprof(["record", "--ready", "sometimes", "--", server], in: scratch.path)
        #expect(probe.status == 2 && probe.standardError.contains("sometimes"), "\(probe.standardError)")
        let grace = try launchprof(["record", "--ready", "tracer", "--grace", "-1", "--", server], in: scratch.path)
        #expect(grace.status == 2 && grace.standardError.contains("--grace"), "\(grace.standardError)")
        let port = try LocalPort.free()
        // Listening on another port than the probe's: never ready.
        let never = try launchprof(
            ["record", "--quiet", "--ready", "port:\(port)", "--timeout", "2", "--", server, "--port", "0"], in: scratch.path,
            timeout: 60)
        #expect(never.status != 0 && never.standardError.contains("never became ready"), "\(never.standardError)")
    }
}
