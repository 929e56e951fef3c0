/// A request or a schedule that cannot be used.
public enum BackgroundTaskError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request is not valid (the message says why).
    case invalidRequest(String)
    /// A scheduler setting is out of range (the message says which).
    case invalidConfiguration(String)
    /// A request for an identifier no handler is registered for.
    case notRegistered(String)
    /// A second handler for one identifier.
    case alreadyRegistered(String)
    /// The schedule file cannot be read as one; it is left as it is.
    case unreadableSchedule(path: String, reason: String)
    /// Another process held the schedule's lock for longer than a
    /// transaction may wait (`BackgroundScheduleFile.lockWait`, 5 s).
    case scheduleLocked(path: String, waited: Duration)
    /// The schedule file cannot be written.
    case unwritableSchedule(path: String, reason: String)
    /// A systemd unit file cannot be written.
    case unwritableUnit(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidRequest(let problem): problem
        case .invalidConfiguration(let problem): "invalid background task scheduler setting: \(problem)"
        case .notRegistered(let identifier):
            "task '\(identifier)' has no handler: register it before submitting a request for it"
        case .alreadyRegistered(let identifier): "task '\(identifier)' is registered already"
        case let .unreadableSchedule(path, reason):
            "the background task schedule '\(path)' cannot be read: \(reason); it was left as it is (move it away to start afresh)"
        case let .scheduleLocked(path, waited):
            "the background task schedule '\(path)' is locked by another process ('\(path).lock' held for over "
                + "\(waited.components.seconds) s); nothing was changed"
        case let .unwritableSchedule(path, reason): "cannot save the background task schedule '\(path)': \(reason)"
        case let .unwritableUnit(path, reason): "cannot write the systemd unit '\(path)': \(reason)"
        }
    }
}
