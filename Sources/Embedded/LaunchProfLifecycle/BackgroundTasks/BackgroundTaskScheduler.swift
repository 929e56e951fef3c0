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
/// One task runs at a time per scheduler, on a Swift task of its own; each
/// run is an interval in the trace (`launchprof` / `background-task`, named
/// by the identifier), followed by an event `IDENTIFIER: OUTCOME`, and is
/// recorded in the schedule with its outcome. A failed or expired run is
/// retried after a backoff that doubles from ``retryDelay`` up to
/// ``maximumRetryDelay``. Processes sharing a schedule never run the same
/// due run twice: a run is claimed in the file, under its lock, before it
/// starts (`BackgroundScheduleFile`, `BackgroundScheduleLock`).
///
/// The type's concerns, one file each: registering and requesting (here),
/// running (`+Running`), recording a run's end (`+Recording`), expiry
/// (`+Expiry`), systemd units (`+Systemd`); the rules of when a task is due
/// are `BackgroundTaskPolicy`, the file `BackgroundScheduleFile`.
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

    /// A run under way in this process.
    struct Running {
        var task: BackgroundTask
        var swiftTask: Task<Void, any Error>
        var started: Int64
        /// Holds the run's claim byte of the lock file until it is recorded.
        var claim: BackgroundScheduleLock
    }

    struct Core {
        var handlers: [String: Handler] = [:]
        var requests: [String: BackgroundTaskRequest] = [:]
        /// The schedule as last read or written.
        var schedule = BackgroundSchedule()
        var running: Running?
        /// Each run's record, kept so that the run and an expiry that
        /// recorded it first report the same.
        var recorded: [ObjectIdentifier: BackgroundTaskRun] = [:]
        /// Set once the process is terminating: no further run starts.
        var terminating = false
    }

    let core = Locked(Core())
    let file: BackgroundScheduleFile
    let policy: BackgroundTaskPolicy
    let clock: @Sendable () -> Int64
    static let signposter = Signposter(subsystem: "launchprof", category: "background-task")

    /// A scheduler whose schedule is kept beside `store`'s state files
    /// (`DIRECTORY/NAME.background-tasks`, NAME the store's).
    public convenience init(beside store: StateStore, conditions: BackgroundConditions = BackgroundConditions()) throws(BackgroundTaskError)
    {
        try self.init(directory: store.directory, name: store.name, conditions: conditions)
    }

    /// A scheduler whose schedule is `directory/name.background-tasks`
    /// (beside a StateStore's files, with its lock file
    /// `name.background-tasks.lock`); the file is read now. The retry
    /// delays must be positive and at most 100 years.
    public init(
        directory: String, name: String = "launchprof", conditions: BackgroundConditions = BackgroundConditions(),
        retryDelay: Duration = .seconds(30), maximumRetryDelay: Duration = .seconds(6 * 3600),
        idlePolicy: IdlePolicy = IdlePolicy(), clock: @escaping @Sendable () -> Int64 = BackgroundTaskScheduler.unixMilliseconds
    ) throws(BackgroundTaskError) {
        for (value, what) in [(retryDelay, "the retry delay"), (maximumRetryDelay, "the maximum retry delay")] {
            if let problem = BackgroundTaskRequest.durationProblem(value, what) { throw .invalidConfiguration(problem) }
        }
        file = BackgroundScheduleFile(directory: directory, name: name)
        path = file.path
        policy = BackgroundTaskPolicy(retryDelay: retryDelay, maximumRetryDelay: maximumRetryDelay)
        self.conditions = conditions
        self.retryDelay = retryDelay
        self.maximumRetryDelay = maximumRetryDelay
        self.idlePolicy = idlePolicy
        self.clock = clock
        let schedule = try file.read()
        core.withLock { $0.schedule = schedule }
    }

    /// Now, in Unix milliseconds (CLOCK_REALTIME).
    @Sendable public static func unixMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// The injected clock, within the schedule file's range.
    var now: Int64 { BackgroundTaskPolicy.clamped(clock()) }

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
    /// only `minimumInterval` after its last run. Changes the file under its
    /// lock, from the file as it is, not as this process last saw it.
    public func submit(_ request: BackgroundTaskRequest) throws(BackgroundTaskError) {
        if let problem = request.problem { throw .invalidRequest(problem) }
        let now = now
        try core.withLock { core throws(BackgroundTaskError) in
            guard core.handlers[request.identifier] != nil else { throw .notRegistered(request.identifier) }
            core.requests[request.identifier] = request
        }
        try change { schedule in
            var entry = schedule.entries[request.identifier] ?? BackgroundSchedule.Entry(identifier: request.identifier)
            entry.nextDue = policy.dueTime(of: request, entry: entry, now: now)
            schedule.entries[request.identifier] = entry
        }
    }

    /// Removes task `identifier`'s request and schedule.
    public func cancel(_ identifier: String) throws(BackgroundTaskError) {
        core.withLock { $0.requests[identifier] = nil }
        try change { $0.entries[identifier] = nil }
    }

    /// One transaction on the file (synchronous callers), keeping the
    /// schedule it wrote.
    private func change(_ body: (inout BackgroundSchedule) -> Void) throws(BackgroundTaskError) {
        let lock = try file.lock()
        let (_, schedule) = try file.update(holding: lock) { schedule throws(BackgroundTaskError) in body(&schedule) }
        core.withLock { $0.schedule = schedule }
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

    static func milliseconds(_ duration: Duration) -> Int64 { BackgroundTaskPolicy.milliseconds(duration) }
}
