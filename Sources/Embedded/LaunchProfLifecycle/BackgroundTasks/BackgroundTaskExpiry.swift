/// Why a run's time ran out.
public enum BackgroundTaskExpiry: String, Sendable, Equatable {
    /// Its time budget passed.
    case timeBudget = "time budget"
    /// The process was told to terminate (SIGTERM, SIGINT, a hangup).
    case terminating
    /// The process was about to be stopped (SIGTSTP).
    case suspending
}
