/// How one run of a background task ended.
public enum BackgroundTaskOutcome: String, Sendable, Equatable {
    /// `setTaskCompleted(success: true)`, or the handler returned.
    case succeeded
    /// `setTaskCompleted(success: false)`, or the handler threw.
    case failed
    /// Its time budget ran out, or the process was suspended or terminated
    /// while it ran: its expiration handler ran and its task was cancelled.
    case expired
}
