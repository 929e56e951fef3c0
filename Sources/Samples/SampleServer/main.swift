// lp-sample-server: a traced Swift server that becomes ready and stays up.
//
// It does a few milliseconds of start-up work (marked with milestones and
// intervals), binds a TCP listener on 127.0.0.1, reports launch complete
// (the record socket's `ready` record and sd_notify READY=1), prints
// "listening on 127.0.0.1:PORT", then answers every connection with "ok\n"
// (an HTTP request with an HTTP response) until SIGTERM or SIGINT, and
// exits 0. Started by socket activation (systemd, `launchprof run
// --activate`, systemd-socket-activate), it accepts on the socket it was
// given instead of binding one, and its first request is already waiting.
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
    if let activated = ActivatedSocket.inherited.first { return Listener(activated: activated) }
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

listener.serve(until: stop) { request in
    guard request.starts(with: Array("GET ".utf8)) || request.starts(with: Array("HEAD ".utf8)) else { return "ok\n" }
    return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n"
}
exit(0)
