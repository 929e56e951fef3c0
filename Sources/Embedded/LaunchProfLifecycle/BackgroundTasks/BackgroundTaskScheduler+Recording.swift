import LaunchProf
import LaunchProfFiles

extension BackgroundTaskScheduler {
    /// Records a run's end in the schedule, under the file's lock (waiting
    /// with `Task.sleep`): the run's own end, or its budget's.
    func record(_ task: BackgroundTask, outcome: BackgroundTaskOutcome, started: Int64) async -> BackgroundTaskRun? {
        let lock: BackgroundScheduleLock?
        do {
            lock = try await file.lock()
        } catch {
            StandardStream.error.write("launchprof: the run of background task '\(task.identifier)' is not recorded: \(error)\n")
            lock = nil
        }
        return record(task, outcome: outcome, started: started, holding: lock)
    }

    /// Records a run's end in the schedule, under the file's lock (waiting
    /// with a blocking sleep): an expiry from a lifecycle handler, which
    /// must not return before the record is on disk.
    @discardableResult
    func recordNow(_ task: BackgroundTask, outcome: BackgroundTaskOutcome, started: Int64) -> BackgroundTaskRun? {
        let lock: BackgroundScheduleLock?
        do {
            lock = try file.lock()
        } catch {
            StandardStream.error.write("launchprof: the run of background task '\(task.identifier)' is not recorded: \(error)\n")
            lock = nil
        }
        return record(task, outcome: outcome, started: started, holding: lock)
    }

    /// Records once per run: a second call returns the first record. The
    /// expiry and the run's own end both record, on different threads, and
    /// whichever comes second must not let the process exit before the
    /// first has saved: the check is made with the file's lock held, which
    /// the first holds until its save is done. Without the lock (another
    /// process held it too long), the run is kept in memory only and its
    /// claim released, so the next process records it as expired.
    private func record(
        _ task: BackgroundTask, outcome: BackgroundTaskOutcome, started: Int64, holding lock: BackgroundScheduleLock?
    ) -> BackgroundTaskRun? {
        let now = now
        var claim: BackgroundScheduleLock?
        var earlier: BackgroundTaskRun?
        var fresh: BackgroundTaskRun?
        func apply(_ schedule: inout BackgroundSchedule) {
            core.withLock { core in
                if let run = core.recorded[ObjectIdentifier(task)] {
                    earlier = run
                    return
                }
                if let running = core.running, running.task === task {
                    claim = running.claim
                    core.running = nil
                }
                let entry = policy.recording(
                    schedule.entries[task.identifier] ?? BackgroundSchedule.Entry(identifier: task.identifier), outcome: outcome,
                    started: started, request: core.requests[task.identifier], now: now)
                schedule.entries[task.identifier] = entry
                let run = BackgroundTaskRun(
                    identifier: task.identifier, outcome: outcome, expiry: task.state.withLock { $0.expired }, started: started,
                    ended: now, nextDue: entry.nextDue)
                core.recorded[ObjectIdentifier(task)] = run
                fresh = run
            }
        }
        if let lock {
            do {
                let (_, schedule) = try file.update(holding: lock) { schedule throws(BackgroundTaskError) in apply(&schedule) }
                core.withLock { $0.schedule = schedule }
            } catch {
                StandardStream.error.write("launchprof: \(error)\n")
            }
        }
        if fresh == nil, earlier == nil {
            // The file could not be read or locked: recorded in memory at least, once.
            var schedule = core.withLock { $0.schedule }
            apply(&schedule)
        }
        // The claim's descriptor, and with it its byte of the lock file, goes
        // once the record is on disk (or could not be), not before.
        withExtendedLifetime(claim) {}
        guard let run = fresh else { return earlier }
        // The outcome beside the run's interval in the trace.
        Self.signposter.emitEvent(dynamicName: "\(task.identifier): \(outcome.rawValue)")
        return run
    }
}
