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

    @discardableResult
    func expireRunning(_ task: BackgroundTask, reason: BackgroundTaskExpiry) -> BackgroundTaskRun? {
        guard let running = core.withLock({ $0.running }), running.task === task else { return nil }
        task.expire(reason)
        running.swiftTask.cancel()
        // Recorded now, not when the handler gets round to returning: the
        // process may be about to end.
        return recordNow(task, outcome: .expired, started: running.started)
    }

    /// Expires a run under way when `lifecycle` is about to suspend or
    /// terminate the process, so the run's expiration handler runs and the
    /// schedule records it before the process stops or ends.
    public func attach(to lifecycle: Lifecycle) {
        lifecycle.onWillTerminate { [self] _ in expireRunning(reason: .terminating) }
        lifecycle.onWillSuspend { [self] in expireRunning(reason: .suspending) }
    }
}
