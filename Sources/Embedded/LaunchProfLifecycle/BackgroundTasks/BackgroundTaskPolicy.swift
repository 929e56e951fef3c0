import LaunchProfDeferred

/// When a task is due, and what a run's end does to its entry: the
/// scheduler's rules apart from the file, the clock and the lock. Every sum
/// saturates and every time is kept within the schedule file's range
/// (0…``BackgroundSchedule/latestTime``), whatever the file or the program
/// passed in: a due time the file could not hold again would be discarded
/// at the next launch and the task run too early.
struct BackgroundTaskPolicy: Sendable, Equatable {
    /// The first retry's delay after a failure, in ms.
    var retryDelay: Int64
    /// The longest retry delay, in ms.
    var maximumRetryDelay: Int64

    /// The longest interval, time budget or retry delay accepted: 100 years.
    static let maximumDuration = Duration.seconds(100 * 365 * 86_400)

    init(retryDelay: Duration, maximumRetryDelay: Duration) {
        self.retryDelay = Self.milliseconds(retryDelay)
        self.maximumRetryDelay = Self.milliseconds(maximumRetryDelay)
    }

    /// The earliest a task may run: its request's begin, the interval after
    /// its last success, the backoff after failures. A last run later than
    /// `now` (the clock was set back, or the file says so) counts as none, as
    /// systemd does with a `Persistent=` timer's stamp from the future.
    func dueTime(of request: BackgroundTaskRequest, entry: BackgroundSchedule.Entry, now: Int64) -> Int64? {
        let now = Self.clamped(now)
        var due = Self.clamped(request.earliestBegin ?? now)
        if let last = entry.lastRun.map(Self.clamped), last <= now {
            switch (request.kind, entry.lastOutcome) {
            case (.refresh(let interval), .succeeded?), (.processing(let interval?), .succeeded?):
                due = max(due, Self.later(last, by: Self.milliseconds(interval)))
            case (.processing(nil), .succeeded?):
                // A one-off that succeeded is done; a new submission after it asks again.
                if entry.nextDue == nil { return due }
            case (_, .failed?), (_, .expired?):
                due = max(due, Self.later(last, by: backoff(failures: entry.failures)))
            default: break
            }
        }
        return due
    }

    /// The delay before retry number `failures`: ``retryDelay`` doubled for
    /// each failure after the first, at most ``maximumRetryDelay``.
    func backoff(failures: Int) -> Int64 {
        let doublings = min(max(failures - 1, 0), 62)
        let (delay, overflow) = max(retryDelay, 0).multipliedReportingOverflow(by: Int64(1) << Int64(doublings))
        return overflow ? maximumRetryDelay : min(delay, maximumRetryDelay)
    }

    /// `entry` once a run that started at `started` ended with `outcome`
    /// at `now`. Without the request (a run recorded by a process that did
    /// not submit it), the next due time only moves later by the backoff.
    func recording(
        _ entry: BackgroundSchedule.Entry, outcome: BackgroundTaskOutcome, started: Int64,
        request: BackgroundTaskRequest?, now: Int64
    ) -> BackgroundSchedule.Entry {
        var entry = entry
        entry.lastRun = Self.clamped(started)
        entry.lastOutcome = outcome
        entry.failures = outcome == .succeeded ? 0 : min(max(entry.failures, 0), BackgroundSchedule.maximumFailures - 1) + 1
        entry.claim = nil
        if let request {
            if case .processing(nil) = request.kind, outcome == .succeeded {
                entry.nextDue = nil
            } else {
                entry.nextDue = dueTime(of: request, entry: entry, now: now)
            }
        } else if outcome != .succeeded, let due = entry.nextDue {
            entry.nextDue = max(Self.clamped(due), Self.later(Self.clamped(started), by: backoff(failures: entry.failures)))
        }
        return entry
    }

    /// `time` within the schedule file's range.
    static func clamped(_ time: Int64) -> Int64 { min(max(time, 0), BackgroundSchedule.latestTime) }

    /// `time + delay`, saturating at the end of the schedule file's range.
    static func later(_ time: Int64, by delay: Int64) -> Int64 {
        let (sum, overflow) = time.addingReportingOverflow(max(delay, 0))
        return overflow ? BackgroundSchedule.latestTime : clamped(sum)
    }

    /// `duration` in whole milliseconds, by the one conversion of the
    /// embedded libraries (`RuntimeClock.nanoseconds`: negative is zero,
    /// huge saturates), so never a trap.
    static func milliseconds(_ duration: Duration) -> Int64 {
        Int64(RuntimeClock.nanoseconds(duration) / 1_000_000)
    }
}
