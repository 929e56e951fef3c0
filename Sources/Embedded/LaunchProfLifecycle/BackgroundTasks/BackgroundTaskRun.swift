/// One run of a background task, as the scheduler recorded it.
public struct BackgroundTaskRun: Sendable, Equatable {
    /// The task.
    public var identifier: String
    /// How it ended.
    public var outcome: BackgroundTaskOutcome
    /// Why it expired, when it did.
    public var expiry: BackgroundTaskExpiry?
    /// When it started, Unix milliseconds.
    public var started: Int64
    /// When it ended (or was recorded as expired), Unix milliseconds.
    public var ended: Int64
    /// When it is due next, Unix milliseconds; nil when it is done for good.
    public var nextDue: Int64?
}
