import LaunchProf

/// Runs non-critical start-up work after launch, when the process is idle.
///
/// Register work during launch with `deferUntilIdle`; none of it runs before
/// the gate opens (by default: `LaunchTracker.recordLaunchComplete()`).
/// Then the initializer waits a fixed ``DeferredConfiguration/idleDelay``,
/// then until the process is idle (``IdlePolicy``), and runs the tasks on
/// background threads: higher ``BackgroundPriority`` first, then in
/// registration order, at most ``DeferredConfiguration/maximumConcurrentTasks``
/// at a time. A task registered once tasks are running takes the next free
/// slot. An error in one task is reported (trace event, ``DeferredConfiguration/onError``)
/// and never stops the others.
///
/// ```swift
/// DeferredInitializer.shared.deferUntilIdle("analytics", priority: .low) {
///     try Analytics.configure()
/// }
/// LaunchTracker.recordLaunchComplete()   // deferred work may start from here
/// ```
///
/// Nothing happens at load time: no thread exists until a task is registered
/// and the gate is open. Every task is an interval in the trace (subsystem
/// `launchprof`, category `deferred`).
public final class DeferredInitializer: Sendable {
    /// The process-wide initializer, gated on launch complete.
    public static let shared = DeferredInitializer()

    /// Where the initializer is in its life.
    public enum Phase: Sendable, Equatable {
        /// The gate is closed: tasks only queue.
        case waitingForGate
        /// The gate is open; waiting out the idle delay and for idleness.
        case settling
        /// Tasks run as slots free up; new tasks run in the next free slot.
        case running
    }

    /// How this initializer opens its gate, waits for idleness and runs its tasks.
    public let configuration: DeferredConfiguration
    let state = Locked(DeferredSchedule())
    /// Wakes the settling thread early (``runNow()``).
    let settleInterrupt = ThreadSemaphore()
    static let signposter = Signposter(subsystem: "launchprof", category: "deferred")

    /// An initializer of its own (tests, or a subsystem that wants its own gate); most programs use ``shared``.
    public init(configuration: DeferredConfiguration = DeferredConfiguration()) {
        self.configuration = configuration
    }

    // MARK: - Registering work

    /// Runs `work` once launch is complete and the process is idle.
    @discardableResult
    public func deferUntilIdle(
        _ name: StaticString, priority: BackgroundPriority = .normal,
        _ work: @escaping @Sendable () throws -> Void
    ) -> DeferredTask {
        enqueue(.fixed(name), priority, .sync(work))
    }

    /// Runs the asynchronous `work` once launch is complete and the process
    /// is idle. It runs in a detached task while a deferred thread (not one
    /// of the concurrency pool's) waits for it, so it counts against the
    /// concurrency limit for its whole duration.
    @discardableResult
    public func deferUntilIdle(
        _ name: StaticString, priority: BackgroundPriority = .normal,
        _ work: @escaping @Sendable () async throws -> Void
    ) -> DeferredTask {
        enqueue(.fixed(name), priority, .async(work))
    }

    /// Like `deferUntilIdle(_:priority:_:)`, for a name only known at run
    /// time (interned in the trace: a lock and a hash).
    @discardableResult
    public func deferUntilIdle(
        named name: String, priority: BackgroundPriority = .normal,
        _ work: @escaping @Sendable () throws -> Void
    ) -> DeferredTask {
        enqueue(.dynamic(name), priority, .sync(work))
    }

    /// Like the asynchronous `deferUntilIdle`, for a name only known at run time.
    @discardableResult
    public func deferUntilIdle(
        named name: String, priority: BackgroundPriority = .normal,
        _ work: @escaping @Sendable () async throws -> Void
    ) -> DeferredTask {
        enqueue(.dynamic(name), priority, .async(work))
    }

    // MARK: - Driving

    /// Opens the gate by hand. With the ``DeferredConfiguration/Gate/launchComplete``
    /// gate this happens at launch complete; calling it earlier opens it early.
    public func openGate() {
        let startSettling = state.withLock { state in
            guard !state.gateOpen else { return false }
            state.gateOpen = true
            state.gateOpenedNanoseconds = RuntimeClock.now
            return state.claimSettlingThread()
        }
        if startSettling { startSettlingThread() }
    }

    /// Runs every queued task now, without waiting for the gate, the delay
    /// or idleness, and returns when all tasks (also those already running
    /// and those registered meanwhile) have finished. For tests and shutdown.
    /// The concurrency limit still holds.
    public func runNow() {
        let (workers, interruptSettling) = state.withLock { state in
            state.forced = true
            switch state.phase {
            case .waitingForGate:
                state.beginRunning(reason: .forced)
                return (state.claimWorkers(limit: configuration.maximumConcurrentTasks), false)
            case .settling: return (0, true)
            case .running: return (0, false)
            }
        }
        if interruptSettling { settleInterrupt.signal() }
        for _ in 0..<workers { startWorker() }
        waitUntilFinished()
    }

    /// Waits (without forcing anything) until no task is queued or running,
    /// or until `timeout` passes; returns whether all were done. Without a
    /// timeout this waits as long as the gate stays closed.
    @discardableResult
    public func waitUntilFinished(timeout: Duration? = nil) -> Bool {
        ThreadSemaphore.wait(timeout: timeout) { waiter in
            state.withLock { state in
                if state.isDrained { return true }
                state.drainWaiters.append(waiter)
                return false
            }
        }
    }

    // MARK: - State

    /// Where the initializer is now.
    public var phase: Phase { state.withLock { $0.phase } }

    /// Why and when the tasks began running, once they have.
    public var startReport: DeferredStartReport? {
        state.withLock { state in
            state.startReason.map { DeferredStartReport(reason: $0, nanoseconds: state.runningSinceNanoseconds) }
        }
    }

    /// When the gate opened, if it has.
    public var gateOpenedNanoseconds: UInt64? { state.withLock { $0.gateOpenedNanoseconds } }

    /// Every task registered so far, in registration order.
    public var tasks: [DeferredTaskRecord] { state.withLock { $0.entries.map(\.record) } }

    func record(id: Int) -> DeferredTaskRecord { state.withLock { $0.entries[id].record } }

    func cancel(id: Int) -> Bool {
        let (cancelled, waiters) = state.withLock { state -> (Bool, [ThreadSemaphore]) in
            guard let position = state.pending.firstIndex(of: id) else { return (false, []) }
            state.pending.remove(at: position)
            state.entries[id].record.finishedNanoseconds = RuntimeClock.now
            state.entries[id].record.outcome = .cancelled
            state.entries[id].work = nil
            return (true, state.takeDrainWaitersIfDrained())
        }
        if cancelled { Self.signposter.emitEvent(internedName: "cancelled: \(record(id: id).name)", value: Int64(id)) }
        for waiter in waiters { waiter.signal() }
        return cancelled
    }
}
