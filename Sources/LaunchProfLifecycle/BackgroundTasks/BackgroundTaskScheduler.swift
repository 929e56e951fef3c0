import Glibc
import LaunchProf
import LaunchProfDeferred
import LaunchProfFiles

/// The seeds' BackgroundTaskManager (iOS's BGTaskScheduler) on Linux: work
/// registered by identifier, requested with a minimum interval or as
/// one-off or repeating processing, with conditions (network, external
/// power, idle), run with a time budget and an expiration handler, and
/// scheduled in a file that outlives the process, so a program launched
/// every minute refreshes at most as often as asked, and a launch never
/// runs a task that is not due.
///
/// ```swift
/// let scheduler = try BackgroundTaskScheduler(directory: stateDirectory)
/// try scheduler.register("com.example.refresh") { task in
///     task.expirationHandler = { cancelDownloads() }
///     try await refreshFeeds()                        // cancelled on expiry
/// }
/// try scheduler.submit(.refresh("com.example.refresh", every: .seconds(900)))
/// scheduler.attach(to: .shared)                       // SIGTERM, SIGTSTP expire a run
/// if await scheduler.runBackgroundLaunch() != nil { exit(0) }   // launched only for a task
/// scheduler.runDueTasksAfterLaunch()                  // nothing runs before launch complete
/// ```
///
/// One task runs at a time, on a Swift task of its own; each run is an
/// interval in the trace (`launchprof` / `background-task`, named by the
/// identifier), followed by an event `IDENTIFIER: OUTCOME`, and is recorded in the schedule with its outcome. A failed or
/// expired run is retried after a backoff that doubles from
/// ``retryDelay`` up to ``maximumRetryDelay``.
public final class BackgroundTaskScheduler: Sendable {
    /// The schedule file.
    public let path: String
    /// Where conditions are read.
    public let conditions: BackgroundConditions
    /// The first retry's delay after a failure; doubled for each failure in a row.
    public let retryDelay: Duration
    /// The longest retry delay.
    public let maximumRetryDelay: Duration
    /// When a request asks for idle, the rule.
    public let idlePolicy: IdlePolicy

    typealias Handler = @Sendable (BackgroundTask) async throws -> Void

    struct Core {
        var handlers: [String: Handler] = [:]
        var requests: [String: BackgroundTaskRequest] = [:]
        var schedule = BackgroundSchedule()
        var running: (task: BackgroundTask, swiftTask: Task<Void, any Error>, started: Int64)?
        /// Each run's record, kept so that the run and an expiry that
        /// recorded it first report the same.
        var recorded: [ObjectIdentifier: BackgroundTaskRun] = [:]
        /// Set once the process is terminating: no further run starts.
        var terminating = false
    }

    let core = Locked(Core())
    private let saving = Locked(())
    private let clock: @Sendable () -> Int64
    private static let signposter = Signposter(subsystem: "launchprof", category: "background-task")

    /// A scheduler whose schedule is kept beside `store`'s state files
    /// (`DIRECTORY/NAME.background-tasks`, NAME the store's).
    public convenience init(beside store: StateStore, conditions: BackgroundConditions = BackgroundConditions()) throws(BackgroundTaskError)
    {
        try self.init(directory: store.directory, name: store.name, conditions: conditions)
    }

    /// A scheduler whose schedule is `directory/name.background-tasks`
    /// (beside a StateStore's files); the file is read now.
    public init(
        directory: String, name: String = "launchprof", conditions: BackgroundConditions = BackgroundConditions(),
        retryDelay: Duration = .seconds(30), maximumRetryDelay: Duration = .seconds(6 * 3600),
        idlePolicy: IdlePolicy = IdlePolicy(), clock: @escaping @Sendable () -> Int64 = BackgroundTaskScheduler.unixMilliseconds
    ) throws(BackgroundTaskError) {
        path = "\(directory)/\(name).background-tasks"
        self.conditions = conditions
        self.retryDelay = retryDelay
        self.maximumRetryDelay = maximumRetryDelay
        self.idlePolicy = idlePolicy
        self.clock = clock
        let schedule = try BackgroundSchedule.load(path)
        core.withLock { $0.schedule = schedule }
    }

    /// Now, in Unix milliseconds (CLOCK_REALTIME).
    @Sendable public static func unixMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    // MARK: - Registering and requesting

    /// Registers the work of task `identifier`. Register every task at each
    /// launch, before anything runs.
    public func register(
        _ identifier: String, handler: @escaping @Sendable (BackgroundTask) async throws -> Void
    ) throws(BackgroundTaskError) {
        if let problem = BackgroundTaskRequest.identifierProblem(identifier) { throw .invalidRequest(problem) }
        let added = core.withLock { core -> Bool in
            guard core.handlers[identifier] == nil else { return false }
            core.handlers[identifier] = handler
            return true
        }
        guard added else { throw .alreadyRegistered(identifier) }
    }

    /// Schedules `request` (replacing the task's earlier request), keeping
    /// the task's history: a refresh submitted at every launch is still due
    /// only `minimumInterval` after its last run.
    public func submit(_ request: BackgroundTaskRequest) throws(BackgroundTaskError) {
        if let problem = request.problem { throw .invalidRequest(problem) }
        let now = clock()
        try core.withLock { core throws(BackgroundTaskError) in
            guard core.handlers[request.identifier] != nil else { throw .notRegistered(request.identifier) }
            core.requests[request.identifier] = request
            var entry =
                core.schedule.entries[request.identifier]
                ?? BackgroundSchedule.Entry(identifier: request.identifier, failures: 0)
            entry.nextDue = dueTime(of: request, entry: entry, now: now)
            core.schedule.entries[request.identifier] = entry
        }
        try persist()
    }

    /// Removes task `identifier`'s request and schedule.
    public func cancel(_ identifier: String) throws(BackgroundTaskError) {
        core.withLock { core in
            core.requests[identifier] = nil
            core.schedule.entries[identifier] = nil
        }
        try persist()
    }

    /// When task `identifier` is due next (Unix ms), nil when it is not scheduled.
    public func nextDue(_ identifier: String) -> Int64? { core.withLock { $0.schedule.entries[identifier]?.nextDue } }

    /// Task `identifier`'s last run: when, and how it ended.
    public func lastRun(_ identifier: String) -> (time: Int64, outcome: BackgroundTaskOutcome)? {
        core.withLock { core in
            guard let entry = core.schedule.entries[identifier], let time = entry.lastRun, let outcome = entry.lastOutcome else {
                return nil
            }
            return (time, outcome)
        }
    }

    /// The identifiers with a request, sorted.
    public var scheduledIdentifiers: [String] { core.withLock { $0.requests.keys.sorted() } }

    /// The request for `identifier`, if one was submitted.
    public func request(_ identifier: String) -> BackgroundTaskRequest? { core.withLock { $0.requests[identifier] } }

    /// The earliest a task may run: its request's begin, the interval after
    /// its last success, the backoff after failures.
    private func dueTime(of request: BackgroundTaskRequest, entry: BackgroundSchedule.Entry, now: Int64) -> Int64? {
        var due = request.earliestBegin ?? now
        if let last = entry.lastRun {
            switch (request.kind, entry.lastOutcome) {
            case (.refresh(let interval), .succeeded?), (.processing(let interval?), .succeeded?):
                due = max(due, last + Self.milliseconds(interval))
            case (.processing(nil), .succeeded?):
                // A one-off that succeeded is done; a new submission after it asks again.
                if entry.nextDue == nil { return request.earliestBegin ?? now }
            case (_, .failed?), (_, .expired?):
                due = max(due, last + backoff(failures: entry.failures))
            default: break
            }
        }
        return due
    }

    private func backoff(failures: Int) -> Int64 {
        let base = Self.milliseconds(retryDelay)
        let limit = Self.milliseconds(maximumRetryDelay)
        let shift = min(max(failures - 1, 0), 30)
        return min(base << Int64(shift), limit)
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    // MARK: - Running

    /// The tasks due now whose conditions hold, in due order.
    public func dueTasks() -> [String] {
        let now = clock()
        let candidates = core.withLock { core in
            core.requests.values.compactMap { request -> (String, Int64, BackgroundTaskRequest)? in
                guard let due = core.schedule.entries[request.identifier]?.nextDue, due <= now else { return nil }
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

    /// One run of `identifier`: the handler on a Swift task of its own,
    /// expired when its budget passes, recorded when it ends.
    private func run(_ identifier: String, backgroundLaunch: Bool) async -> BackgroundTaskRun? {
        let prepared = core.withLock { core -> (Handler, BackgroundTaskRequest)? in
            guard core.running == nil, !core.terminating, let handler = core.handlers[identifier], let request = core.requests[identifier]
            else {
                return nil
            }
            return (handler, request)
        }
        guard let (handler, request) = prepared else { return nil }
        if request.requiresIdle {
            _ = IdleDetector(policy: idlePolicy).waitForIdle { nanoseconds in
                var pause = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
                nanosleep(&pause, nil)
                return false
            }
        }
        let task = BackgroundTask(identifier: identifier, isBackgroundLaunch: backgroundLaunch)
        let started = clock()
        let interval = Self.signposter.beginInterval(dynamicName: identifier)
        let swiftTask = Task<Void, any Error> { try await handler(task) }
        core.withLock { $0.running = (task, swiftTask, started) }
        // The budget: expire the run when it passes, unless it ended first.
        let budget = Task {
            try await Task.sleep(for: request.timeBudget)
            self.expireRunning(task, reason: .timeBudget)
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
        return record(task, outcome: outcome, started: started)
    }

    /// Records a run's end in the schedule and saves it (once per run; a
    /// second call returns the first record, once it is on disk: the
    /// expiry and the run's own end both record, on different threads, and
    /// whichever returns second must not let the process exit before the
    /// first has saved).
    @discardableResult
    private func record(_ task: BackgroundTask, outcome: BackgroundTaskOutcome, started: Int64) -> BackgroundTaskRun? {
        saving.withLock { _ in recordAndSave(task, outcome: outcome, started: started) }
    }

    private func recordAndSave(_ task: BackgroundTask, outcome: BackgroundTaskOutcome, started: Int64) -> BackgroundTaskRun? {
        let now = clock()
        var earlier: BackgroundTaskRun?
        let recorded = core.withLock { core -> BackgroundTaskRun? in
            if let run = core.recorded[ObjectIdentifier(task)] {
                earlier = run
                return nil
            }
            if core.running?.task === task { core.running = nil }
            var entry = core.schedule.entries[task.identifier] ?? BackgroundSchedule.Entry(identifier: task.identifier, failures: 0)
            entry.lastRun = started
            entry.lastOutcome = outcome
            entry.failures = outcome == .succeeded ? 0 : entry.failures + 1
            if let request = core.requests[task.identifier] {
                if case .processing(nil) = request.kind, outcome == .succeeded {
                    entry.nextDue = nil
                } else {
                    entry.nextDue = dueTime(of: request, entry: entry, now: now)
                }
            }
            core.schedule.entries[task.identifier] = entry
            let run = BackgroundTaskRun(
                identifier: task.identifier, outcome: outcome, expiry: task.state.withLock { $0.expired }, started: started,
                ended: now, nextDue: entry.nextDue)
            core.recorded[ObjectIdentifier(task)] = run
            return run
        }
        guard let run = recorded else { return earlier }
        // The outcome beside the run's interval in the trace.
        Self.signposter.emitEvent(dynamicName: "\(task.identifier): \(outcome.rawValue)")
        do {
            try core.withLock { $0.schedule }.save(path)  // the saving lock is held
        } catch {
            StandardError.write("launchprof: \(error)\n")
        }
        return run
    }

    /// Writes the schedule as it is now. Saves are one at a time and each
    /// takes the schedule when it starts writing, so a slow save never puts
    /// an older schedule over a newer one.
    private func persist() throws(BackgroundTaskError) {
        try saving.withLock { _ throws(BackgroundTaskError) in
            try core.withLock { $0.schedule }.save(path)
        }
    }

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
    private func expireRunning(_ task: BackgroundTask, reason: BackgroundTaskExpiry) -> BackgroundTaskRun? {
        guard let running = core.withLock({ $0.running }), running.task === task else { return nil }
        task.expire(reason)
        running.swiftTask.cancel()
        // Recorded now, not when the handler gets round to returning: the
        // process may be about to end.
        return record(task, outcome: .expired, started: running.started)
    }

    /// Expires a run under way when `lifecycle` is about to suspend or
    /// terminate the process, so the run's expiration handler runs and the
    /// schedule records it before the process stops or ends.
    public func attach(to lifecycle: Lifecycle) {
        lifecycle.onWillTerminate { [self] _ in expireRunning(reason: .terminating) }
        lifecycle.onWillSuspend { [self] in expireRunning(reason: .suspending) }
    }
}
