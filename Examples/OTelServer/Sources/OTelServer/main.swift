// launchprof-otel-server: a small HTTP server whose launch reaches an
// OpenTelemetry collector. Its launch loads a route table, builds a response
// cache and warms two worker threads, each step a signpost interval or a
// milestone; at launch complete LaunchProfTracing and LaunchProfMetrics hand
// the launch to swift-otel, which sends it over OTLP/HTTP
// (OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318; OTEL_SERVICE_NAME).
//
//   launchprof-otel-server [--port N]     (0, the default: any free port)
//
// It prints "listening on 127.0.0.1:PORT", answers every request with
// "hello", and on SIGTERM or SIGINT stops accepting and lets swift-otel
// flush what it has not sent yet.
import Foundation
import LaunchProf
import LaunchProfMetrics
import LaunchProfTracing
import Logging
import OTel
import ServiceLifecycle

LaunchTracker.recordLaunchStart()
Tracer.enable()  // intervals too, not only milestones

var port: UInt16 = 0
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port":
        guard let text = arguments.popFirst(), let value = UInt16(text) else {
            FileHandle.standardError.write(Data("launchprof-otel-server: --port needs a port number (0 to 65535)\n".utf8))
            exit(2)
        }
        port = value
    default:
        FileHandle.standardError.write(
            Data("launchprof-otel-server: unknown argument '\(argument)' (usage: launchprof-otel-server [--port N])\n".utf8))
        exit(2)
    }
}

var configuration = OTel.Configuration.default
configuration.serviceName = "launchprof-otel-server"
configuration.logs.enabled = false
configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(500)
configuration.metrics.exportInterval = .seconds(1)
let observability = try OTel.bootstrap(configuration: configuration)

// The two lines that ship the launch.
LaunchTracing.emitAtLaunchComplete()
LaunchMetrics.recordAtLaunchComplete()

// The launch.
let signposter = Signposter(subsystem: "dev.launchprof.otel-server", category: "launch")
let routes = signposter.withIntervalSignpost("load routes") {
    Dictionary(uniqueKeysWithValues: (0..<2_000).map { ("/route/\($0)", $0) })
}
LaunchTracker.recordMilestone("routes loaded")
let cache = signposter.withIntervalSignpost("build response cache") {
    (0..<20_000).map { "response \($0) for \(routes.count) routes" }.sorted()
}
let workers = DispatchGroup()
for number in 0..<2 {
    workers.enter()
    Thread.detachNewThread {
        Tracer.setCurrentThreadName("warm \(number)")
        signposter.withIntervalSignpost("warm worker") { _ = cache.reduce(0) { $0 &+ $1.utf8.count } }
        workers.leave()
    }
}
workers.wait()
LaunchTracker.recordMilestone("workers warm")

let listener = try Listener(port: port)
FileHandle.standardOutput.write(Data("listening on 127.0.0.1:\(listener.port)\n".utf8))
LaunchTracker.recordLaunchComplete()

let server = HelloServer(listener: listener)
let group = ServiceGroup(
    services: [observability, server], gracefulShutdownSignals: [.sigterm, .sigint],
    logger: Logger(label: "launchprof-otel-server"))
try await group.run()
