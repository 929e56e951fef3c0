import Glibc
import LaunchProfFiles
import LaunchSupport

/// The loop that watches one launch from spawn to reap.
///
/// Its state is a value, `RunStateMachine`: an explicit phase (launching,
/// the steps after ready, stopping, ended) with its deadline. Everything
/// the run waits on is a `RunEventSource` polled together in one
/// `poll(2)`: the spawner's replies, the record socket, captured output,
/// the notify socket, the activation requests (first and warm), the trace
/// file, the port probe, the X display's windows and the interrupt. Each round the loop asks every
/// source what to poll, sleeps at most until the phase's deadline (or a
/// retrying probe's next try), hands what the sources report to the state
/// machine, and does what it answers (signals, the warm request, the trace
/// watch). So every wait of a run is bounded by `--timeout`/`--grace` and
/// ended by Ctrl-C within one round; no source blocks.
///
/// When the machine says the run ended, the loop reaps the process tree
/// through the spawner and turns what it saw into an `ObservedRun`.
package struct RunLoop {
    let process: LaunchedProcess
    let settings: RunSettings
    var machine: RunStateMachine
    let records: RecordChannel
    let outputs: [OutputChannel]
    let notify: NotifyChannel?
    let window: WindowReadiness?
    var sources: [any RunEventSource]
    var firstRequest: ActivationRequest?
    var warmRequest: ActivationRequest?

    /// A loop for `process`, observed under `settings`.
    package init(process: LaunchedProcess, settings: RunSettings, interrupt: InterruptMonitor? = nil) {
        self.process = process
        self.settings = settings
        let plan = RunStateMachine.Plan(
            readyAtExit: settings.probe == .exit, awaitsTrace: settings.traceFile != nil,
            sendsWarmRequest: settings.activation != nil, cyclesSuspend: settings.measure.contains(.resume),
            timeout: settings.timeout.saturatingNanoseconds, grace: settings.grace.saturatingNanoseconds)
        machine = RunStateMachine(plan: plan, start: process.startNanoseconds)
        records = RecordChannel(process: process, readyByTracer: settings.probe == .tracer)
        let channels = process.channels
        var pattern: TextPattern?
        if case .output(let text) = settings.probe { pattern = try? TextPattern(text) }
        var outputs: [OutputChannel] = []
        if let fd = channels.stdoutRead { outputs.append(OutputChannel(fd, echo: channels.echo?.stdout, pattern: pattern)) }
        if let fd = channels.stderrRead { outputs.append(OutputChannel(fd, echo: channels.echo?.stderr, pattern: pattern)) }
        self.outputs = outputs
        notify = channels.notify.map { NotifyChannel($0, process: process) }
        window = channels.window.map { WindowReadiness($0, process: process, probe: settings.probe) }
        // Channels first: a program that says ready and exits at once is
        // seen ready before it is seen gone. The spawner's replies last.
        var sources: [any RunEventSource] = [records]
        sources += outputs as [any RunEventSource]
        if let notify { sources.append(notify) }
        if let window { sources.append(window) }
        if case .port(let number) = settings.probe { sources.append(PortReadiness(port: number)) }
        if let interrupt { sources.append(InterruptSource(interrupt)) }
        sources.append(SpawnerReplies(process: process))
        self.sources = sources
    }

    /// Runs the loop to the end of the process and returns what it saw.
    package consuming func run() throws(LaunchError) -> ObservedRun {
        // Everything is ready before a quiet spawn is sent: between the
        // request and the first poll launchprof does nothing that would
        // compete with the starting program for a CPU.
        do throws(LaunchError) {
            try process.start()
            machine = RunStateMachine(plan: machine.plan, start: process.startNanoseconds)
            if let activation = settings.activation, let listener = process.channels.activation {
                let first = ActivationRequest(.first, address: listener.address, request: activation.request)
                firstRequest = first
                sources.insert(first, at: sources.count - 1)
            }
            while machine.end == nil { try round() }
        } catch {
            closeRequests()
            throw error
        }
        closeRequests()
        // What the program wrote before its exit was read in the round that
        // saw the exit; a run that was killed needs nothing more read.
        let end = try process.reap()
        return observed(ending: end)
    }

    /// One poll of every source, the events handed to the state machine,
    /// its actions done.
    private mutating func round() throws(LaunchError) {
        let now = monotonicNanoseconds()
        perform(machine.tick(now: now))
        guard machine.end == nil else { return }
        var descriptors: [pollfd] = []
        var owners: [Int] = []
        var wait = machine.deadline > now ? machine.deadline - now : 0
        for (index, source) in sources.enumerated() {
            if let request = source.pollRequest {
                descriptors.append(request)
                owners.append(index)
            }
            if let retry = source.retryInterval { wait = min(wait, retry) }
        }
        // Milliseconds, rounded up so a deadline is not missed by a wake-up
        // just before it; at most a second per round.
        let timeout = Int32((min(wait, 1_000_000_000) + 999_999) / 1_000_000)
        do {
            _ = try Syscall.poll(&descriptors, timeout: timeout)
        } catch {
            throw .system(error, program: process.program)
        }
        var revents = [Int16](repeating: 0, count: sources.count)
        for (slot, index) in owners.enumerated() { revents[index] = descriptors[slot].revents }
        let after = monotonicNanoseconds()
        var events: [RunEvent] = []
        for (index, source) in sources.enumerated() { events += try source.events(revents: revents[index], now: after) }
        if events.contains(where: { if case .exited = $0 { true } else { false } }) {
            // The exit is known: what the program wrote before it is read first.
            events.insert(contentsOf: try channelEvents(), at: 0)
        }
        let wasReady = machine.readyAt != nil
        let actions = machine.handle(events, now: after)
        // `--counts perf` and kernel-side sampling stop at ready, not at the
        // stop signal: the spawner hears of it first (the tree's mappings
        // are read then, while it is alive).
        if settings.counts || settings.sampling, !wasReady, machine.readyAt != nil, settings.probe != .exit { process.markReady() }
        perform(actions)
    }

    /// What the record, output and notify channels hold now, read without waiting.
    private func channelEvents() throws(LaunchError) -> [RunEvent] {
        var events: [RunEvent] = []
        let readable = Int16(POLLIN)
        events += try records.events(revents: readable, now: 0)
        for output in outputs { events += try output.events(revents: readable, now: 0) }
        if let notify { events += try notify.events(revents: readable, now: 0) }
        return events
    }

    private mutating func perform(_ actions: [RunAction]) {
        for action in actions {
            switch action {
            case .signal(let number):
                process.signalGroup(number)
            case .awaitTrace:
                guard let path = settings.traceFile else { continue }
                sources.insert(TraceFileWatch(path: path), at: sources.count - 1)
            case .sendWarmRequest:
                guard let activation = settings.activation, let listener = process.channels.activation else { continue }
                let warm = ActivationRequest(.warm, address: listener.address, request: activation.request)
                warmRequest = warm
                sources.insert(warm, at: sources.count - 1)
            }
        }
    }

    private func closeRequests() {
        firstRequest?.close()
        warmRequest?.close()
    }
}
