import CLaunchProfLifecycle
import CLaunchProfSupport
import Glibc
import LaunchProf
import LaunchProfFiles

/// The life of a Linux process as app states: launching, active, inactive,
/// background, suspended, terminating — driven by signals, the terminal,
/// systemd and the kernel, reported to handlers and as an `AsyncSequence`,
/// and traced.
///
/// ```swift
/// let lifecycle = Lifecycle.shared
/// lifecycle.onWillSuspend { pauseWork() }             // SIGTSTP (Ctrl-Z), before the stop
/// lifecycle.onResume { resumeWork() }                 // SIGCONT
/// lifecycle.onWillTerminate { _ in drainRequests() }  // SIGTERM / SIGINT, within a budget
/// lifecycle.onReload { reloadConfiguration() }        // SIGHUP without a terminal
/// lifecycle.onMemoryPressure { _ in cache.removeAll() }
/// try lifecycle.start()
/// LaunchTracker.recordLaunchComplete()                // launching -> active, READY=1
/// ```
///
/// Nothing happens until ``start(_:)``: it installs async-signal-safe
/// handlers (C, writing to a self-pipe) and starts two threads: one polls
/// the pipe, a heartbeat, the memory-pressure trigger and a clock-change
/// timer; the other runs your handlers, in order, on a normal thread.
public final class Lifecycle: Sendable {
    /// The process's lifecycle.
    public static let shared = Lifecycle()

    struct Core {
        var started = false
        var state: LifecycleState = .launching
        var registrations: [LifecycleRegistration] = []
        var streams: [Int: AsyncStream<LifecycleEvent>.Continuation] = [:]
        var nextStream = 0
        var memoryPressure: MonitorStatus = .off
        var clockChanges: MonitorStatus = .off
        var preservation: StatePreservation?
        /// Active sessions and background stints, for the transitions.
        var sessions = LifecycleSessions()
    }

    let core = Locked(Core())
    /// Set by whichever saves the state at termination: the handler thread
    /// after the will-terminate handlers, or the lifecycle thread when those
    /// ran past their budget. Never both: they would write the same file.
    private let terminationSaveClaimed = Locked(false)

    private init() {}

    /// The current state.
    public var state: LifecycleState { core.withLock { $0.state } }

    /// Whether the memory-pressure trigger is armed, and if not, why.
    public var memoryPressureStatus: MonitorStatus { core.withLock { $0.memoryPressure } }

    /// Whether wall-clock changes are watched, and if not, why.
    public var clockChangeStatus: MonitorStatus { core.withLock { $0.clockChanges } }

    /// Starts the lifecycle: signal handlers, the lifecycle thread, and the
    /// kernel notifications the configuration asks for. Once per process.
    /// Register handlers before, so none misses an early signal.
    public func start(_ configuration: LifecycleConfiguration = LifecycleConfiguration()) throws(LifecycleError) {
        if let problem = configuration.problem() { throw .invalidConfiguration(problem) }
        let first = core.withLock { core in
            defer { core.started = true }
            return !core.started
        }
        guard first else { throw .alreadyStarted }
        core.withLock { $0.sessions.longBackgroundThreshold = configuration.longBackgroundThreshold }
        let worker = HandlerWorker()
        do throws(LifecycleError) {
            try worker.start()
        } catch {
            core.withLock { $0.started = false }
            throw error
        }
        let fd = lp_lifecycle_install()
        guard fd >= 0 else { throw .signalSetup(errno: errno) }
        let loop = LifecycleLoop(lifecycle: self, configuration: configuration, signalFD: fd, worker: worker)
        let statuses = loop.openMonitors()
        core.withLock { core in
            core.memoryPressure = statuses.memory
            core.clockChanges = statuses.clock
        }
        do throws(LifecycleError) {
            try LifecycleThread.start(name: "lp-lifecycle") { loop.run() }
        } catch {
            lp_lifecycle_restore_defaults()
            throw error
        }
        LaunchTracker.onLaunchComplete { _ = lp_lifecycle_post(UInt8(LP_LIFECYCLE_COMMAND_LAUNCH_COMPLETE)) }
    }

    // MARK: - Event streams

    /// Every lifecycle event from now on, as an `AsyncSequence`. Each call
    /// makes a new stream; it keeps the newest `limit` events a slow reader
    /// has not taken yet.
    public func events(bufferingNewest limit: Int = 64) -> AsyncStream<LifecycleEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LifecycleEvent.self, bufferingPolicy: .bufferingNewest(limit))
        let key = core.withLock { core in
            defer { core.nextStream += 1 }
            core.streams[core.nextStream] = continuation
            return core.nextStream
        }
        continuation.onTermination = { [weak self] _ in _ = self?.core.withLock { $0.streams.removeValue(forKey: key) } }
        return stream
    }

    /// The state transitions from now on, as an `AsyncSequence`.
    public var transitions: AsyncCompactMapSequence<AsyncStream<LifecycleEvent>, LifecycleTransition> {
        events().compactMap { event in
            if case .transition(let transition) = event { return transition }
            return nil
        }
    }

    // MARK: - Used by the lifecycle threads

    /// Moves the state machine to `next` (if allowed from where it is), then
    /// runs handlers and saves state. Runs on the handler thread.
    func move(to next: LifecycleState, cause: LifecycleCause) {
        let now = lp_now_ns()
        let moved = core.withLock { core -> (LifecycleTransition, StatePreservation?, Duration?)? in
            guard core.state.canMove(to: next) else { return nil }
            var transition = LifecycleTransition(from: core.state, to: next, cause: cause, nanoseconds: now)
            let returned = core.sessions.record(&transition)
            core.state = next
            return (transition, core.preservation, returned)
        }
        guard let (transition, preservation, returned) = moved else { return }
        LifecycleTrace.entered(next, at: now)
        if transition.from == .launching {
            LifecycleTrace.interval("launching", from: lp_process_entry_ns(), to: now)
        }
        deliver(.transition(transition))
        if let returned { deliver(.returnedAfterLongBackground(returned)) }
        guard next != .terminating || claimTerminationSave() else { return }
        if let failure = preservation?.save(for: transition) { deliver(.stateSaveFailed(failure)) }
    }

    /// True for the first caller only.
    func claimTerminationSave() -> Bool {
        terminationSaveClaimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }

    /// Termination handlers ran past their budget: save what there is, not
    /// marked as a clean shutdown (the handlers did not finish).
    func saveAfterTerminationOverrun() {
        guard claimTerminationSave(), let preservation = core.withLock({ $0.preservation }) else { return }
        do {
            try preservation.store.save(preservation.complete(), kind: .complete)
        } catch {
            StandardStream.error.write("launchprof: \(error)\n")
        }
    }

    /// Runs the handlers that match `event` and feeds the streams.
    func deliver(_ event: LifecycleEvent) {
        let (registrations, streams) = core.withLock { ($0.registrations, Array($0.streams.values)) }
        for registration in registrations where registration.matches(event) { registration.handler(event) }
        for stream in streams { stream.yield(event) }
    }
}
