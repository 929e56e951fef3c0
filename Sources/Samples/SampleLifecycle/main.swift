// lp-sample-lifecycle: a traced server with a lifecycle.
//
// It restores its state (launch and request counters) from the last run,
// starts LaunchProf's Lifecycle, listens on 127.0.0.1, and reports launch
// complete (READY=1). Then:
//   SIGTSTP (Ctrl-Z)  will-suspend handlers, complete state saved, stopped
//   SIGCONT           resume handlers, back to active ("LP1 resumed" for launchprof)
//   SIGHUP            reloads its greeting (RELOADING=1 … READY=1), without a terminal
//   SIGTERM / SIGINT  will-terminate handlers, state saved as a clean shutdown,
//                     trace written, STOPPING=1, dies by the signal
// Every lifecycle event is printed as one "event: …" line on stdout.
import Glibc
import LaunchProf
import LaunchProfLifecycle

LaunchTracker.recordLaunchStart()
let signposter = Signposter(subsystem: "dev.launchprof.sample-lifecycle", category: "launch")
let options = LifecycleOptions.parse(CommandLine.arguments.dropFirst())
signal(SIGPIPE, SIG_IGN)

let store: StateStore
do {
    store = try StateStore(
        appName: "lp-sample-lifecycle", appVersion: options.appVersion, directory: options.stateDirectory,
        maximumAge: .seconds(options.maximumAgeSeconds ?? 24 * 3_600))
} catch {
    fail("\(error)")
}
if options.printStateDirectory {
    say(store.directory)
    exit(0)
}
let restoration = signposter.withIntervalSignpost("restore state") { store.restore() }
say("previous run: \(restoration.previousRun)")
if let snapshot = restoration.snapshot {
    say("restored \(snapshot.kind) state, \(snapshot.bytes.count) bytes, saved \(snapshot.age.components.seconds) s ago")
} else if let discarded = restoration.discarded {
    say(discarded.description)
} else {
    say("no saved state")
}
let model = ServerModel(restoring: restoration.snapshot?.bytes, padding: options.stateBytes)
model.launched()
say("state: \(model.summary)")
LaunchTracker.recordMilestone("state restored")

let greeting = Greeting(file: options.greetingFile)
let lifecycle = Lifecycle.shared
lifecycle.onEvent { say("event: \($0)") }
lifecycle.onWillSuspend {
    if options.slowSuspendMilliseconds > 0 { usleep(UInt32(options.slowSuspendMilliseconds) * 1_000) }
    say("will suspend: \(model.summary)")
}
lifecycle.onResume { say("resumed") }
lifecycle.onWillTerminate { cause in
    say("will terminate (\(cause)): \(model.summary)")
    if options.slowTerminateMilliseconds > 0 {
        usleep(UInt32(options.slowTerminateMilliseconds) * 1_000)
        say("slow terminate handler finished")
    }
}
lifecycle.onReload {
    say("reloading")
    if options.slowReloadMilliseconds > 0 { usleep(UInt32(options.slowReloadMilliseconds) * 1_000) }
    say("reloaded: greeting '\(greeting.reload())'")
}
lifecycle.preserveState(in: store, quick: { model.quickState() }, complete: { model.completeState() })

var configuration = LifecycleConfiguration()
configuration.heartbeat = .milliseconds(options.heartbeatMilliseconds)
if let budget = options.terminateBudgetMilliseconds { configuration.terminateBudget = .milliseconds(budget) }
if let budget = options.suspendBudgetMilliseconds { configuration.suspendBudget = .milliseconds(budget) }
if options.exitStatus { configuration.terminationExit = .exitStatus }
do {
    try lifecycle.start(configuration)
} catch {
    fail("\(error)")
}
say("memory pressure: \(lifecycle.memoryPressureStatus)")
say("clock changes: \(lifecycle.clockChangeStatus)")

let listener: Listener
do {
    listener = try Listener(port: options.port)
} catch {
    fail("\(error)")
}
LaunchTracker.recordMilestone("listening")
LaunchTracker.recordLaunchComplete()
say("listening on 127.0.0.1:\(listener.port)")

listener.serve { _ in
    let count = model.served()
    return "\(greeting.text) (request \(count))\n"
}
