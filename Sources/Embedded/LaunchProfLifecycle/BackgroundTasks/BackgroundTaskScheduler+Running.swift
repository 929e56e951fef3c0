import Glibc
import LaunchProf
import LaunchProfDeferred
import LaunchProfFiles

extension BackgroundTaskScheduler {
    /// The tasks due now whose conditions hold, in due order, by the
    /// schedule as the file holds it now (another process may have run one
    /// since this one read it). A task another live process is running is
    /// not due.
    public func dueTasks() -> [String] {
        let now = now
        let schedule: BackgroundSchedule
        do {
            schedule = try file.read()
            core.withLock { $0.schedule = schedule }
        } catch {
            StandardStream.error.write("launchprof: \(error)\n")
            return []
        }
        let lock = try? BackgroundScheduleLock(path: file.lockPath)
        let candidates = core.withLock { core in
            core.requests.values.compactMap { request -> (String, Int64, BackgroundTaskRequest)? in
                guard let entry = schedule.entries[request.identifier], let due = entry.nextDue, due <= now else { return nil }
                if let claim = entry.claim, lock?.isHeldElsewhere(byte: claim.slot) ?? true { return nil }
                return (request.identifier, due, request)
            }
        }
        return candidates.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.filter { conditionsHold(for: $0.2) }.map(\.0)
    }

    private func conditionsHold(for request: BackgroundTaskRequest) -> Bool {
        if request.requiresExternalPower, !conditions.hasExternalPower { return false }
        if request.requiresNetwork, !conditions.hasNetwork { return false }
        return true
    }

    /// Runs every task that is due now and whose conditions hold, one after
    /// the other; returns their runs. Whatever the launch's state: call it
    /// after launch complete (``runDueTasksAfterLaunch()`` does).
    @discardableResult
    public func runDueTasks() async -> [BackgroundTaskRun] {
        var runs: [BackgroundTaskRun] = []
        for identifier in dueTasks() {
            if core.withLock({ $0.terminating }) { break }
            if let run = await run(identifier, backgroundLaunch: false) { runs.append(run) }
        }
        return runs
    }

    /// Runs the due tasks once launch is complete, on a background task:
    /// nothing runs before it.
    public func runDueTasksAfterLaunch() {
        LaunchTracker.onLaunchComplete { [self] in
            Task.detached(priority: .background) { await self.runDueTasks() }
        }
    }

    /// For a background launch (`LaunchTracker.backgroundTaskIdentifier`):
    /// runs that task if it is due and its conditions hold (a launch never
    /// runs a task that is not due), and returns its run; nil for a
    /// foreground launch or a task not due. The caller then exits without
    /// its foreground launch work.
    public func runBackgroundLaunch() async -> BackgroundTaskRun? {
        guard let identifier = LaunchTracker.backgroundTaskIdentifier else { return nil }
        guard dueTasks().contains(identifier) else { return nil }
        return await run(identifier, backgroundLaunch: true)
    }

    /// One run of `identifier`: claimed in the file, the handler on a Swift
    /// task of its own, expired when its budget passes, recorded when it
    /// ends. Nil when this process runs something already, or the task is
    /// not due by the file (run meanwhile, or claimed by a live process).
    private func run(_ identifier: String, backgroundLaunch: Bool) async -> BackgroundTaskRun? {
        let prepared = core.withLock { core -> (Handler, BackgroundTaskRequest)? in
            guard core.running == nil, !core.terminating, let handler = core.handlers[identifier], let request = core.requests[identifier]
            else {
                return nil
            }
            return (handler, request)
        }
        guard let (handler, request) = prepared else { return nil }
        if request.requiresIdle { await waitForIdle() }
        guard let (claim, started) = await claimDueRun(of: identifier) else { return nil }
        let task = BackgroundTask(identifier: identifier, isBackgroundLaunch: backgroundLaunch)
        let interval = Self.signposter.beginInterval(dynamicName: identifier)
        // The run is registered under the lock it is started in: a SIGTERM
        // whose handler looks for the run under way (expireRunning) finds it
        // as soon as the handler can have begun. Registered after, a handler
        // that had already said it started could meet a termination that
        // found nothing to expire (BackgroundTaskTests.terminationExpires
        // failed so, now and then, under load).
        let swiftTask = core.withLock { core -> Task<Void, any Error> in
            let swiftTask = Task<Void, any Error> { try await handler(task) }
            core.running = Running(task: task, swiftTask: swiftTask, started: started, claim: claim)
            return swiftTask
        }
        // The budget: expire the run when it passes, unless it ended first.
        let budget = Task {
            try await Task.sleep(for: request.timeBudget)
            await self.expireAfterBudget(task)
        }
        let result = await swiftTask.result
        budget.cancel()
        Self.signposter.endInterval(dynamicName: identifier, interval)
        let outcome: BackgroundTaskOutcome
        if task.isExpired {
            outcome = .expired
        } else if let success = task.state.withLock({ $0.completion }) {
            outcome = success ? .succeeded : .failed
        } else {
            outcome = (try? result.get()) != nil ? .succeeded : .failed
        }
        return await record(task, outcome: outcome, started: started)
    }

    /// Under the schedule's lock, from the file as it is: records the runs
    /// of processes that died (claims nobody holds) as expired, then, if
    /// `identifier` is still due and unclaimed, claims it with a byte of the
    /// lock file that this process holds until the run is recorded. Returns
    /// the claim and the run's start, or nil (not due, or the file could not
    /// be read, locked or written: said on standard error).
    private func claimDueRun(of identifier: String) async -> (BackgroundScheduleLock, Int64)? {
        let now = now
        do {
            let claim = try BackgroundScheduleLock(path: file.lockPath)
            let lock = try await file.lock()
            let (claimed, schedule) = try file.update(holding: lock) { schedule throws(BackgroundTaskError) -> Bool in
                recordDeadClaims(in: &schedule, lock: lock, now: now)
                guard var entry = schedule.entries[identifier], let due = entry.nextDue, due <= now, entry.claim == nil else {
                    return false
                }
                let taken = Set(schedule.entries.values.compactMap { $0.claim?.slot })
                guard let slot = (1...BackgroundSchedule.maximumClaimSlot).first(where: { !taken.contains($0) && claim.tryLock(byte: $0) })
                else { return false }
                entry.claim = BackgroundSchedule.Claim(slot: slot, started: now)
                schedule.entries[identifier] = entry
                return true
            }
            core.withLock { $0.schedule = schedule }
            return claimed ? (claim, now) : nil
        } catch {
            StandardStream.error.write("launchprof: background task '\(identifier)' not run: \(error)\n")
            return nil
        }
    }

    /// Claims whose byte no process holds are runs whose process ended
    /// without recording them (killed, crashed): each is recorded as
    /// expired, so its retry waits for the backoff and nothing is lost.
    private func recordDeadClaims(in schedule: inout BackgroundSchedule, lock: BackgroundScheduleLock, now: Int64) {
        for (identifier, entry) in schedule.entries {
            guard let claim = entry.claim, !lock.isHeldElsewhere(byte: claim.slot) else { continue }
            let request = core.withLock { $0.requests[identifier] }
            schedule.entries[identifier] = policy.recording(
                entry, outcome: .expired, started: claim.started, request: request, now: now)
            StandardStream.error.write(
                "launchprof: background task '\(identifier)' was running in a process that ended before recording it "
                    + "(started at \(claim.started) ms); recorded as expired\n")
        }
    }

    /// Waits until the process is idle by ``idlePolicy``, on a thread of its
    /// own: the detector measures window after window with a blocking sleep,
    /// which must not hold a thread of the shared pool. Ends early when the
    /// process starts terminating.
    private func waitForIdle() async {
        let policy = idlePolicy
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait: @Sendable () -> Void = { [self] in
                _ = IdleDetector(policy: policy).waitForIdle { nanoseconds in
                    var pause = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
                    nanosleep(&pause, nil)
                    return core.withLock { $0.terminating }
                }
                continuation.resume()
            }
            // No thread to be had (EAGAIN): wait here, late but not lost.
            if BackgroundThread.spawn(name: "lp-bg-idle", wait) != 0 { wait() }
        }
    }
}
