// lp-sample-server: a traced Swift server that becomes ready and stays up.
//
// It does a few milliseconds of start-up work (marked with milestones and
// intervals), binds a TCP listener on 127.0.0.1, reports launch complete
// (the harness pipe's `ready` record and sd_notify READY=1), prints
// "listening on 127.0.0.1:PORT", then answers every connection with "ok\n"
// until SIGTERM or SIGINT, and exits 0.
//
//   lp-sample-server [--port N] [--routes N]     (--port 0 picks a free port)
import Glibc
import LaunchProf

LaunchTracker.recordLaunchStart()
let signposter = Signposter(subsystem: "dev.launchprof.sample-server", category: "launch")

let options = ServerOptions.parse(CommandLine.arguments.dropFirst())
// A peer that closes before reading its reply must not kill the server.
signal(SIGPIPE, SIG_IGN)
let stop = StopSignals.install()

let routes = signposter.withIntervalSignpost("load routes") { RouteTable(count: options.routes) }
LaunchTracker.recordMilestone("routes loaded")

let listener = signposter.withIntervalSignpost("bind") { () -> Listener in
    do {
        return try Listener(port: options.port)
    } catch {
        fail("\(error)")
    }
}
LaunchTracker.recordMilestone("listening")

LaunchTracker.recordLaunchComplete()
print("listening on 127.0.0.1:\(listener.port) (\(routes.count) routes)")
fflush(nil)  // all streams: stdout is not concurrency-safe to name in Swift 6

listener.serve(until: stop) { _ in "ok\n" }
exit(0)
