import Glibc

/// The decisions of one run, as a value: which phase it is in, until when,
/// and what to do when an event arrives or a deadline passes. It does no
/// I/O, so every rule of a run (when it is ready, what follows ready, when
/// it times out, how it ended) is decided here once, and tests drive it
/// with scripted events (swift-service-lifecycle's `ServiceGroup` keeps a
/// private state enum the same way; NIO's state machines return actions).
///
/// `RunLoop` feeds it events, performs the `RunAction`s it returns,
/// polls no longer than ``deadline``, and reads how the run ended from it.
struct RunStateMachine: Sendable {
    /// What the run asks for after ready.
    struct Plan: Equatable, Sendable {
        /// Ready is the exit (`--ready exit`): nothing follows it.
        var readyAtExit = false
        /// Wait for the trace file after ready (`--trace-runs`).
        var awaitsTrace = false
        /// Send the request again once up (`--activate`).
        var sendsWarmRequest = false
        /// Suspend and resume after ready (`--measure resume`).
        var cyclesSuspend = false
        /// The launch's timeout, and the grace period after SIGTERM (ns).
        var timeout: UInt64
        var grace: UInt64
    }

    let plan: Plan
    private(set) var phase = RunPhase.launching
    /// When the current phase is over (CLOCK_MONOTONIC ns).
    private(set) var deadline: UInt64
    /// When the probe fired, and when the process exited.
    private(set) var readyAt: UInt64?
    private(set) var exitedAt: UInt64?
    /// The signal launchprof stopped the process with after ready (SIGTERM,
    /// then SIGKILL after the grace period), and when SIGTERM was sent.
    private(set) var stopSignal: Int32?
    private(set) var stopSentAt: UInt64?
    /// `--measure resume` and `--activate`'s figures.
    private(set) var timeToSuspend: UInt64?
    private(set) var timeToResume: UInt64?
    private(set) var warmRequest: UInt64?
    /// What the run's report should say once.
    private(set) var notes: [String] = []

    /// A run started at `start` (deadlines count from there).
    init(plan: Plan, start: UInt64) {
        self.plan = plan
        deadline = Self.later(start, by: plan.timeout)
    }

    /// How the run ended; nil while it goes on.
    var end: RunEnd? {
        if case .ended(let end) = phase { return end }
        return nil
    }

    /// Handles the events of one round of the loop. An exit among them is
    /// taken last: what the program said before exiting (ready, a record)
    /// counts, but nothing that follows ready is started for a process
    /// that is already gone.
    mutating func handle(_ events: [RunEvent], now: UInt64) -> [RunAction] {
        var actions: [RunAction] = []
        let exits = events.filter { if case .exited = $0 { return true } else { return false } }
        for event in events where !exits.contains(event) {
            if case .ready(let at) = event, !exits.isEmpty {
                if phase == .launching, readyAt == nil { readyAt = at }
                continue
            }
            actions += handle(event, now: now)
        }
        for event in exits { actions += handle(event, now: now) }
        return actions
    }

    /// Handles one event at `now`.
    mutating func handle(_ event: RunEvent, now: UInt64) -> [RunAction] {
        if case .exited(let at) = event {
            exitedAt = exitedAt ?? at
            if plan.readyAtExit, readyAt == nil, end == nil { readyAt = at }
            if end == nil { phase = .ended(.exited) }
            return []
        }
        guard end == nil else { return [] }
        switch (event, phase) {
        case (.interrupted, _):
            return endKilling(.interrupted)
        case (.failed(let failure), _):
            return endKilling(.aborted(failure))
        case (.ready(let at), .launching):
            guard readyAt == nil, !plan.readyAtExit else { return [] }
            readyAt = at
            return advance(after: .launching, now: now)
        case (.traceWritten, .awaitingTrace):
            return advance(after: .awaitingTrace, now: now)
        case (.warmResponse(let result), .warmRequest):
            switch result {
            case .success(let nanoseconds): warmRequest = nanoseconds
            case .failure(let failure): note("--activate: the warm request (the same request once up) failed: \(failure.message)")
            }
            return advance(after: .warmRequest, now: now)
        case (.stopped(let at), .suspending(let sentAt)):
            timeToSuspend = at > sentAt ? at - sentAt : 0
            phase = .resuming(sentAt: now)
            return [.signal(SIGCONT)]
        case (.resumed(let at), .resuming(let sentAt)):
            timeToResume = at > sentAt ? at - sentAt : 0
            return advance(after: phase, now: now)
        default:
            return []  // an event this phase does not wait for
        }
    }

    /// Time has passed: the current phase's deadline, if it is over.
    mutating func tick(now: UInt64) -> [RunAction] {
        guard end == nil, now >= deadline else { return [] }
        switch phase {
        case .launching:
            return endKilling(.timedOut)
        case .awaitingTrace:
            return advance(after: .awaitingTrace, now: now)  // the executor says the trace is missing
        case .warmRequest:
            note("--activate: the warm request (the same request once up) failed: no whole response before the run's timeout")
            return advance(after: .warmRequest, now: now)
        case .suspending:
            return endKilling(.aborted(.measure("--measure resume: the process did not stop after SIGTSTP")))
        case .resuming:
            return endKilling(
                .aborted(
                    .measure(
                        "--measure resume: no 'LP1 resumed' record after SIGCONT (the program must use LaunchProf's Lifecycle)"
                    )))
        case .stopping:
            stopSignal = SIGKILL
            phase = .ended(.killedAfterGrace)
            return [.signal(SIGKILL)]
        case .ended:
            return []
        }
    }

    /// The next phase after `current`, with its deadline and what starts it.
    private mutating func advance(after current: RunPhase, now: UInt64) -> [RunAction] {
        let order: [RunPhase] = [.launching, .awaitingTrace, .warmRequest, .suspending(sentAt: 0), .stopping]
        let position = order.firstIndex { Self.sameKind($0, current) } ?? 0
        for next in order[(position + 1)...] {
            switch next {
            case .awaitingTrace where plan.awaitsTrace:
                phase = .awaitingTrace
                deadline = Self.later(now, by: plan.grace)
                return [.awaitTrace]
            case .warmRequest where plan.sendsWarmRequest:
                phase = .warmRequest
                deadline = Self.later(now, by: plan.timeout)
                return [.sendWarmRequest]
            case .suspending where plan.cyclesSuspend:
                phase = .suspending(sentAt: now)
                deadline = Self.later(now, by: plan.timeout)
                return [.signal(SIGTSTP)]
            case .stopping:
                phase = .stopping
                stopSignal = SIGTERM
                stopSentAt = now
                deadline = Self.later(now, by: plan.grace)
                return [.signal(SIGTERM)]
            default:
                continue
            }
        }
        return []
    }

    /// `suspending` and `resuming` are one step of the order.
    private static func sameKind(_ a: RunPhase, _ b: RunPhase) -> Bool {
        switch (a, b) {
        case (.suspending, .suspending), (.suspending, .resuming): true
        default: a == b
        }
    }

    /// `time + span`, saturated: an absurd timeout means never, not a
    /// deadline that wrapped into the past.
    private static func later(_ time: UInt64, by span: UInt64) -> UInt64 {
        let (sum, overflow) = time.addingReportingOverflow(span)
        return overflow ? .max : sum
    }

    private mutating func endKilling(_ end: RunEnd) -> [RunAction] {
        phase = .ended(end)
        return [.signal(SIGKILL)]
    }

    private mutating func note(_ text: String) {
        if !notes.contains(text) { notes.append(text) }
    }
}
