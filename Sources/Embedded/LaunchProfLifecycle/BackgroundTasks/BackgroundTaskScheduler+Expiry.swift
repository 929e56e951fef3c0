extension BackgroundTaskScheduler {
    /// Expires the run under way, if it is `task` (or any, when nil):
    /// expiration handler, then its Swift task cancelled, then recorded.
    /// Returns the run recorded.
    /// A terminating process starts no further run.
    @discardableResult
    public func expireRunning(reason: BackgroundTaskExpiry) -> BackgroundTaskRun? {
        guard
            let running = core.withLock({ core in
                if reason == .terminating { core.terminating = true }
                return core.running
            })
        else { return nil }
        return expireRunning(running.task, reason: reason)
    }

    /// Expires the run of `task`, if it is the one under way, and records it
    /// (waiting for the file's lock with a blocking sleep: from a lifecycle
    /// handler, which must not return before the record is on disk).
    @discardableResult
    func expireRunning(_ task: BackgroundTask, reason: BackgroundTaskExpiry) -> BackgroundTaskRun? {
        guard let started = expire(task, reason: reason) else { return nil }
        // Recorded now, not when the handler gets round to returning: the
        // process may be about to end.
        return recordNow(task, outcome: .expired, started: started)
    }

    /// The same when `task`'s time budget passes, from the budget's Swift
    /// task: waits for the file's lock with `Task.sleep`.
    func expireAfterBudget(_ task: BackgroundTask) async {
        guard let started = expire(task, reason: .timeBudget) else { return }
        _ = await record(task, outcome: .expired, started: started)
    }

    /// Runs `task`'s expiration handler and cancels its Swift task, if it is
    /// the run under way; returns when it started.
    private func expire(_ task: BackgroundTask, reason: BackgroundTaskExpiry) -> Int64? {
        guard let running = core.withLock({ $0.running }), running.task === task else { return nil }
        task.expire(reason)
        running.swiftTask.cancel()
        return running.started
    }

    /// Expires a run under way when `lifecycle` is about to suspend or
    /// terminate the process, so the run's expiration handler runs and the
    /// schedule records it before the process stops or ends.
    public func attach(to lifecycle: Lifecycle) {
        lifecycle.onWillTerminate { [self] _ in expireRunning(reason: .terminating) }
        lifecycle.onWillSuspend { [self] in expireRunning(reason: .suspending) }
    }
}
