// lp-sample-background: a program with background tasks on a persisted
// schedule (BackgroundTaskScheduler), for the tests and as an example.
//
// It registers two tasks: dev.launchprof.refresh, a refresh due every
// --interval-ms (default 2000), and dev.launchprof.cleanup, one-off
// processing that requires external power. At a normal launch it does its
// foreground launch work, records launch complete, then runs whatever is
// due and prints each run; launched for a task (LAUNCHPROF_BACKGROUND_TASK,
// as the systemd units it writes set), it runs only that task, if due, and
// skips the foreground work.
//
//   lp-sample-background --state DIR [--power DIR] [--interval-ms N] [--work-ms N]
//                        [--budget-ms N] [--retry-ms N] [--lifecycle] [--write-units DIR]
//                        [--barrier PATH]
//
// --power names a directory standing in for /sys/class/power_supply;
// --work-ms is each task's work (it checks for cancellation every 5 ms);
// --budget-ms its time budget; --retry-ms the first retry's delay after a
// failure or expiry (default 500); --lifecycle starts Lifecycle, so SIGTERM and
// SIGTSTP expire a run; --write-units writes the systemd units and exits;
// --barrier makes it say "at barrier" after launch complete and wait (up to
// 30 s) until PATH exists before running what is due, so that a test can
// start two launches and let them race for the same due task at once.
// Every line it prints is flushed at once, for the tests to read.
import Glibc
import LaunchProf
import LaunchProfLifecycle

LaunchTracker.recordLaunchStart()

func say(_ text: String) {
    var bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    var bytes = Array("lp-sample-background: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

struct Options {
    var state: String?
    var power: String?
    var intervalMilliseconds = 2000
    var workMilliseconds = 20
    var budgetMilliseconds = 30_000
    var retryMilliseconds = 500
    var lifecycle = false
    var units: String?
    var barrier: String?
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let next = arguments.popFirst() else { fail("\(flag) needs a value") }
        return next
    }
    func number(_ flag: String) -> Int {
        let text = value(flag)
        guard let number = Int(text), number > 0 else { fail("\(flag) needs a positive whole number, got '\(text)'") }
        return number
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--state": options.state = value(argument)
        case "--power": options.power = value(argument)
        case "--interval-ms": options.intervalMilliseconds = number(argument)
        case "--work-ms": options.workMilliseconds = number(argument)
        case "--budget-ms": options.budgetMilliseconds = number(argument)
        case "--retry-ms": options.retryMilliseconds = number(argument)
        case "--lifecycle": options.lifecycle = true
        case "--write-units": options.units = value(argument)
        case "--barrier": options.barrier = value(argument)
        default: fail("unknown argument '\(argument)'")
        }
    }
    guard options.state != nil else { fail("--state DIR is required (where the schedule is kept)") }
    return options
}

let options = parseOptions()
let scheduler: BackgroundTaskScheduler
do {
    scheduler = try BackgroundTaskScheduler(
        directory: options.state!, name: "lp-sample-background",
        conditions: options.power.map { BackgroundConditions(powerSupplies: $0) } ?? BackgroundConditions(),
        retryDelay: .milliseconds(options.retryMilliseconds))
} catch {
    fail("\(error)")
}

/// The work of either task: --work-ms in 5 ms steps, stopping when cancelled.
@Sendable func work(_ task: BackgroundTask) async throws {
    task.expirationHandler = { say("expiration handler ran for \(task.identifier)") }
    say("started \(task.identifier)\(task.isBackgroundLaunch ? " (background launch)" : "")")
    var left = options.workMilliseconds
    while left > 0 {
        do {
            try await Task.sleep(for: .milliseconds(min(5, left)))
        } catch {
            say("work of \(task.identifier) saw cancellation")
            throw error
        }
        left -= 5
    }
    task.setTaskCompleted(success: true)
}

do {
    try scheduler.register("dev.launchprof.refresh", handler: work)
    try scheduler.register("dev.launchprof.cleanup", handler: work)
    let budget = Duration.milliseconds(options.budgetMilliseconds)
    try scheduler.submit(.refresh("dev.launchprof.refresh", every: .milliseconds(options.intervalMilliseconds), timeBudget: budget))
    // One-off work: asked for until it has succeeded once (a request
    // submitted again after a success asks for another run).
    if scheduler.lastRun("dev.launchprof.cleanup")?.outcome != .succeeded {
        try scheduler.submit(.processing("dev.launchprof.cleanup", requiresExternalPower: true, timeBudget: budget))
    }
} catch {
    fail("\(error)")
}

if let directory = options.units {
    // The units run this very executable: its absolute path.
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let executable =
        length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    do {
        let paths = try scheduler.writeSystemdUnits(
            to: directory, executable: executable, arguments: ["--state", options.state!], prefix: "lp-sample-background")
        for path in paths { say("wrote \(path)") }
    } catch {
        fail("\(error)")
    }
    exit(0)
}

if options.lifecycle {
    scheduler.attach(to: .shared)
    do {
        try Lifecycle.shared.start()
    } catch {
        fail("\(error)")
    }
}

if let identifier = LaunchTracker.backgroundTaskIdentifier {
    // A background launch: no foreground work, only the task it was launched for.
    LaunchTracker.recordLaunchComplete()
    say("background launch for \(identifier)")
    if let run = await scheduler.runBackgroundLaunch() {
        say("ran \(run.identifier): \(run.outcome.rawValue)")
    } else {
        say("\(identifier) is not due: nothing ran")
    }
    if options.lifecycle {
        for _ in 0..<100 where Lifecycle.shared.state == .launching { usleep(10_000) }
        say("lifecycle state: \(Lifecycle.shared.state)")
    }
    exit(0)
}

let signposter = Signposter(subsystem: "dev.launchprof.sample", category: "launch")
signposter.withIntervalSignpost("foreground launch work") { _ = usleep(5_000) }
say("foreground launch work done")
LaunchTracker.recordLaunchComplete()
if let barrier = options.barrier {
    say("at barrier")
    for _ in 0..<30_000 where access(barrier, F_OK) != 0 { usleep(1_000) }
}
// Nothing ran before launch complete; what is due runs now.
for run in await scheduler.runDueTasks() {
    say("ran \(run.identifier): \(run.outcome.rawValue)\(run.expiry.map { " (\($0.rawValue))" } ?? "")")
}
// SIGTERM expired the run and stopped the schedule: Lifecycle ends the
// process (128 + the signal) once its will-terminate handlers are done.
while options.lifecycle && Lifecycle.shared.state == .terminating { usleep(10_000) }
say("done")
exit(0)
