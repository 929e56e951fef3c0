// lp-sample-async-server: a traced server with an async main, the shape of a
// Hummingbird or Vapor server without a framework. Its launch work runs on
// Swift's cooperative pool, not on the main thread: "load config" and
// "build router" (awaited, so on the launch path), and "warm cache" (a task
// nobody awaits before launch complete, so off it). Then it binds a TCP
// listener on 127.0.0.1 (or accepts on the socket it was started with),
// records launch complete, prints "listening on 127.0.0.1:PORT", and answers
// each connection with "ok" until SIGTERM or SIGINT.
//
//   lp-sample-async-server [--port N]                 (default 0: a free port)
//   LP_SAMPLE_SLOW_ROUTER_MS=N   N ms more of CPU work inside "build router"
import Glibc
import LaunchProf

@main
struct SampleAsyncServer {
    static let signposter = Signposter(subsystem: "dev.launchprof.sample-async-server", category: "launch")

    static func main() async {
        LaunchTracker.recordLaunchStart()
        signal(SIGPIPE, SIG_IGN)
        // The default action would end the process with a signal; a server
        // stopped on purpose exits 0.
        signal(SIGTERM) { _ in _exit(0) }
        signal(SIGINT) { _ in _exit(0) }
        let port = port(CommandLine.arguments)
        let slowRouter = milliseconds("LP_SAMPLE_SLOW_ROUTER_MS")

        let cache = Task.detached { warmCache() }
        let config = await loadConfig()
        let routes = await buildRouter(config: config, extraMilliseconds: slowRouter)
        let listener = bind(port: port)
        LaunchTracker.recordLaunchComplete()
        print("listening on 127.0.0.1:\(listener.port) (\(routes) routes)")
        fflush(nil)
        _ = await cache.value
        serve(listener.fd)
    }

    /// Reads and checks a configuration: about 2 ms of CPU on a pool thread.
    nonisolated static func loadConfig() async -> Int {
        signposter.withIntervalSignpost("load config") { spin(milliseconds: 2) }
    }

    /// Builds the route table: about 3 ms of CPU on a pool thread, and `extraMilliseconds` more.
    nonisolated static func buildRouter(config: Int, extraMilliseconds: Int) async -> Int {
        signposter.withIntervalSignpost("build router") { 64 + spin(milliseconds: 3 + extraMilliseconds) % 2 + config % 2 }
    }

    /// Work beside the launch that it does not wait for.
    nonisolated static func warmCache() -> Int {
        signposter.withIntervalSignpost("warm cache") { spin(milliseconds: 2) }
    }

    /// `milliseconds` of this thread's CPU time (CLOCK_THREAD_CPUTIME_ID: not
    /// the other threads').
    nonisolated static func spin(milliseconds: Int) -> Int {
        func now() -> Int {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return time.tv_sec * 1_000_000_000 + time.tv_nsec
        }
        let end = now() + milliseconds * 1_000_000
        var value = 0
        while now() < end { for step in 0..<1000 { value = value &* 31 &+ step } }
        return value
    }

    static func port(_ arguments: [String]) -> Int {
        guard let index = arguments.firstIndex(of: "--port") else { return 0 }
        guard index + 1 < arguments.count, let port = Int(arguments[index + 1]), (0...65535).contains(port) else {
            fail("--port needs a port number from 0 to 65535")
        }
        return port
    }

    static func milliseconds(_ name: String) -> Int {
        guard let text = getenv(name).map({ String(cString: $0) }) else { return 0 }
        guard let value = Int(text), (0...10_000).contains(value) else {
            fail("\(name) must be milliseconds from 0 to 10000, not '\(text)'")
        }
        return value
    }
}

func fail(_ message: String) -> Never {
    let bytes = Array("lp-sample-async-server: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}
