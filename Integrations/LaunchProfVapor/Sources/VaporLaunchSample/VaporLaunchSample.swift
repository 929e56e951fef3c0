// vapor-launch-sample: a Vapor 4 server with an async main. Its launch work
// runs in signpost intervals ("load config", "register routes") on Swift's
// cooperative pool; launch complete is recorded when the server is
// accepting (VaporLaunch.execute). Vapor logs "Server started on
// http://127.0.0.1:PORT"; it serves GET /health, and POST /echo answers
// the request's body, until SIGTERM. Socket-activated (systemd, launchprof
// run --activate), it serves on the socket it was started with instead.
//
//   vapor-launch-sample [serve --port N]     (default: a free port)
//   LP_SAMPLE_SLOW_ROUTES_MS=N   N ms more of CPU work inside "register routes"
//   LP_SAMPLE_IDLE_TIMEOUT_MS=N  close a connection idle for N ms (Vapor's idleTimeout)
import LaunchProf
import LaunchProfSampleSupport
import LaunchProfVapor
import Vapor

#if canImport(Glibc)
import Glibc
#endif

@main
struct VaporLaunchSample {
    static let signposter = Signposter(subsystem: "dev.launchprof.vapor-sample", category: "launch")

    static func main() async throws {
        LaunchTracker.recordLaunchStart()
        let slowRoutes = SampleOptions.milliseconds("LP_SAMPLE_SLOW_ROUTES_MS")
        let idleTimeout = SampleOptions.milliseconds("LP_SAMPLE_IDLE_TIMEOUT_MS")
        var environment = try Environment.detect()
        try LoggingSystem.bootstrap(from: &environment)
        let app = try await Application.make(environment)
        let greeting = signposter.withIntervalSignpost("load config") { "ok (\(SampleOptions.spin(milliseconds: 2) % 2))" }
        // A free port unless `serve --port N` says otherwise.
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        if idleTimeout > 0 { app.http.server.configuration.idleTimeout = .milliseconds(Int64(idleTimeout)) }
        signposter.withIntervalSignpost("register routes") {
            _ = SampleOptions.spin(milliseconds: 1 + slowRoutes)
            app.get("health") { _ in "ok\n" }
            app.post("echo") { request in request.body.string ?? "" }
            app.get { _ in greeting + "\n" }
            for index in 0..<20 { app.get("items", "\(index)") { _ in "item \(index)\n" } }
        }
        do {
            try await VaporLaunch.execute(app)
        } catch {
            // An error thrown out of main would trap.
            try? await app.asyncShutdown()
            SampleOptions.fail("\(error)")
        }
        try await app.asyncShutdown()
    }
}
