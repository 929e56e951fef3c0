import LaunchProf

// MARK: - Queueing, settling and running tasks

extension DeferredInitializer {
    func enqueue(_ name: DeferredTaskName, _ priority: BackgroundPriority, _ work: DeferredWork) -> DeferredTask {
        let now = RuntimeClock.now
        let (id, hookGate, startSettling, workers) = state.withLock { state in
            let id = state.entries.count
            let record = DeferredTaskRecord(id: id, taskName: name, priority: priority, queuedNanoseconds: now)
            state.entries.append(DeferredEntry(record: record, work: work))
            state.pending.append(id)
            let hookGate = configuration.gate == .launchComplete && !state.gateHooked
            state.gateHooked = state.gateHooked || hookGate
            let startSettling = state.claimSettlingThread()
            return (id, hookGate, startSettling, state.claimWorkers(limit: configuration.maximumConcurrentTasks))
        }
        // Outside the lock: onLaunchComplete runs the handler at once when
        // launch is already complete.
        if hookGate { LaunchTracker.onLaunchComplete { [self] in openGate() } }
        if startSettling { startSettlingThread() }
        for _ in 0..<workers { startWorker() }
        return DeferredTask(id: id, initializer: self)
    }

    /// Waits out the idle delay and for idleness on a thread of its own,
    /// then becomes the first worker.
    func startSettlingThread() {
        BackgroundThread.start(name: "lp-deferred") { [self] in
            let reason = settle()
            let extraWorkers = state.withLock { state in
                if state.phase != .running { state.beginRunning(reason: reason) }
                state.workers += 1  // this thread
                return state.claimWorkers(limit: configuration.maximumConcurrentTasks)
            }
            for _ in 0..<extraWorkers { startWorker() }
            workLoop()
        }
    }

    private func settle() -> DeferredStartReason {
        let interval = Self.signposter.beginInterval("settle")
        defer { Self.signposter.endInterval("settle", interval) }
        // runNow() sets `forced` and signals: a pause ends early when it does.
        let pause: (UInt64) -> Bool = { [self] nanoseconds in
            _ = settleInterrupt.wait(timeoutNanoseconds: nanoseconds)
            return state.withLock { $0.forced }
        }
        let delay = RuntimeClock.nanoseconds(configuration.idleDelay)
        if delay > 0, pause(delay) { return .forced }
        if state.withLock({ $0.forced }) { return .forced }
        let reason = IdleDetector(policy: configuration.idle).waitForIdle(pause: pause)
        Self.signposter.emitEvent(internedName: "deferred start: \(reason)", value: Int64(state.withLock { $0.pending.count }))
        return reason
    }

    func startWorker() {
        BackgroundThread.start(name: "lp-deferred") { [self] in workLoop() }
    }

    /// Takes tasks until none is left, then retires this thread.
    private func workLoop() {
        while let (id, work) = takeNext() {
            run(id: id, work)
        }
    }

    private func takeNext() -> (Int, DeferredWork)? {
        let now = RuntimeClock.now
        let (next, waiters) = state.withLock { state -> ((Int, DeferredWork)?, [ThreadSemaphore]) in
            guard let id = state.popNext(), let work = state.entries[id].work else {
                state.workers -= 1
                return (nil, state.takeDrainWaitersIfDrained())
            }
            state.entries[id].work = nil
            state.entries[id].record.startedNanoseconds = now
            state.running += 1
            return ((id, work), [])
        }
        for waiter in waiters { waiter.signal() }
        return next
    }

    private func run(id: Int, _ work: DeferredWork) {
        let name = state.withLock { $0.entries[id].record.taskName }
        let interval = beginInterval(name)
        let error = Self.perform(work)
        endInterval(name, interval)
        let finished = state.withLock { state in
            state.entries[id].record.finishedNanoseconds = RuntimeClock.now
            state.entries[id].record.outcome = error.map { .failed(String(describing: $0)) } ?? .succeeded
            state.running -= 1
            return state.entries[id].record
        }
        if let error { report(error, of: finished) }
    }

    private static func perform(_ work: DeferredWork) -> (any Error)? {
        switch work {
        case .sync(let body):
            do { try body() } catch { return error }
            return nil
        case .async(let body):
            return waitForTask(body)
        }
    }

    /// Runs `body` in a detached task and blocks this (non-pool) thread until
    /// it ends.
    private static func waitForTask(_ body: @escaping @Sendable () async throws -> Void) -> (any Error)? {
        final class Outcome: Sendable {
            let error = Locked<(any Error)?>(nil)
            let done = ThreadSemaphore()
        }
        let outcome = Outcome()
        Task.detached {
            do { try await body() } catch { outcome.error.withLock { $0 = error } }
            outcome.done.signal()
        }
        outcome.done.wait()
        return outcome.error.withLock { $0 }
    }

    private func report(_ error: any Error, of task: DeferredTaskRecord) {
        Self.signposter.emitEvent(internedName: "\(task.name) failed: \(error)", value: Int64(task.id))
        configuration.onError?(task, error)
    }

    private func beginInterval(_ name: DeferredTaskName) -> SignpostIntervalState {
        switch name {
        case .fixed(let name): Self.signposter.beginInterval(name)
        case .dynamic(let name): Self.signposter.beginInterval(dynamicName: name)
        }
    }

    private func endInterval(_ name: DeferredTaskName, _ interval: SignpostIntervalState) {
        switch name {
        case .fixed(let name): Self.signposter.endInterval(name, interval)
        case .dynamic(let name): Self.signposter.endInterval(dynamicName: name, interval)
        }
    }
}
