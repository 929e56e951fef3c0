// hummingbird-launch-sample: a Hummingbird 2 server with an async main. Its
// launch work runs in signpost intervals ("load config", "build router") on
// Swift's cooperative pool; launch complete is recorded when the server is
// accepting (HummingbirdLaunch.serverRunning), on the socket it was started
// with when socket-activated. It prints "listening on 127.0.0.1:PORT" and
// serves GET /health until SIGTERM.
//
//   hummingbird-launch-sample [--port N]            (default 0: a free port)
//   LP_SAMPLE_SLOW_ROUTER_MS=N   N ms more of CPU work inside "build router"
import Hummingbird
import LaunchProf
import LaunchProfHummingbird
import LaunchProfSampleSupport
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

@main
struct HummingbirdLaunchSample {
    static let signposter = Signposter(subsystem: "dev.launchprof.hummingbird-sample", category: "launch")

    static func main() async throws {
        LaunchTracker.recordLaunchStart()
        let port = SampleOptions.port(CommandLine.arguments)
        let slowRouter = SampleOptions.milliseconds("LP_SAMPLE_SLOW_ROUTER_MS")
        let greeting = signposter.withIntervalSignpost("load config") { "ok (\(SampleOptions.spin(milliseconds: 2) % 2))" }
        let router = signposter.withIntervalSignpost("build router") { () -> Router<BasicRequestContext> in
            _ = SampleOptions.spin(milliseconds: 1 + slowRouter)
            let router = Router()
            router.get("/health") { _, _ in "ok\n" }
            router.get("/") { _, _ in greeting + "\n" }
            for index in 0..<20 { router.get("/items/\(index)") { _, _ in "item \(index)\n" } }
            return router
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                await HummingbirdLaunch.serverRunning(channel)
                print("listening on 127.0.0.1:\(channel.localAddress?.port ?? 0)")
                fflush(nil)
            })
        // Socket-activated (systemd, launchprof run --activate): accept on
        // the socket it was started with; otherwise bind 127.0.0.1:port.
        do {
            try await app.runService(inheriting: ActivatedSocket.inherited.first)
        } catch {
            // An error thrown out of main would trap.
            SampleOptions.fail("\(error)")
        }
    }
}
