/// Work to do outside the launch, at most as often as asked, on a schedule
/// that outlives the process: the seeds' `BGAppRefreshTaskRequest` and
/// `BGProcessingTaskRequest` on Linux.
///
/// ```swift
/// try scheduler.submit(.refresh("com.example.refresh", every: .seconds(15 * 60)))
/// try scheduler.submit(.processing("com.example.cleanup", requiresExternalPower: true))
/// ```
public struct BackgroundTaskRequest: Sendable, Equatable {
    /// What kind of work it is.
    public enum Kind: Sendable, Equatable {
        /// Keeps something fresh: due again `minimumInterval` after each run
        /// (iOS: an app refresh, at most every 15 minutes).
        case refresh(minimumInterval: Duration)
        /// Maintenance: once (nil) or again `interval` after each success.
        case processing(repeatEvery: Duration?)
    }

    /// The task's identifier (letters, digits, `.`, `-`, `_`): what it is
    /// registered, scheduled, traced and named in unit files by.
    public var identifier: String
    /// Refresh or processing.
    public var kind: Kind
    /// Not before this Unix time (milliseconds); nil: as soon as the rest allows.
    public var earliestBegin: Int64?
    /// Run only with a usable default route.
    public var requiresNetwork: Bool
    /// Run only on mains power (or on a machine without a battery).
    public var requiresExternalPower: Bool
    /// Run only once the process is idle (`IdlePolicy`).
    public var requiresIdle: Bool
    /// How long one run may take: then its expiration handler runs and its
    /// Swift task is cancelled.
    public var timeBudget: Duration

    /// A request; see the ``refresh(_:every:earliestBegin:requiresNetwork:timeBudget:)`` and
    /// ``processing(_:repeatEvery:earliestBegin:requiresNetwork:requiresExternalPower:requiresIdle:timeBudget:)`` shorthands.
    public init(
        identifier: String, kind: Kind, earliestBegin: Int64? = nil, requiresNetwork: Bool = false,
        requiresExternalPower: Bool = false, requiresIdle: Bool = false, timeBudget: Duration
    ) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBegin = earliestBegin
        self.requiresNetwork = requiresNetwork
        self.requiresExternalPower = requiresExternalPower
        self.requiresIdle = requiresIdle
        self.timeBudget = timeBudget
    }

    /// An app-refresh-style request: due `every` after its last run; 30 s per run by default, as iOS gives a refresh.
    public static func refresh(
        _ identifier: String, every interval: Duration, earliestBegin: Int64? = nil, requiresNetwork: Bool = false,
        timeBudget: Duration = .seconds(30)
    ) -> BackgroundTaskRequest {
        BackgroundTaskRequest(
            identifier: identifier, kind: .refresh(minimumInterval: interval), earliestBegin: earliestBegin,
            requiresNetwork: requiresNetwork, timeBudget: timeBudget)
    }

    /// A processing-style request: once, or again `repeatEvery` after each success; 10 minutes per run by default.
    public static func processing(
        _ identifier: String, repeatEvery interval: Duration? = nil, earliestBegin: Int64? = nil, requiresNetwork: Bool = false,
        requiresExternalPower: Bool = false, requiresIdle: Bool = false, timeBudget: Duration = .seconds(600)
    ) -> BackgroundTaskRequest {
        BackgroundTaskRequest(
            identifier: identifier, kind: .processing(repeatEvery: interval), earliestBegin: earliestBegin,
            requiresNetwork: requiresNetwork, requiresExternalPower: requiresExternalPower, requiresIdle: requiresIdle,
            timeBudget: timeBudget)
    }

    /// Why this request cannot be scheduled, or nil. Every duration is
    /// positive and at most 100 years, and the earliest begin a Unix time the
    /// schedule file can hold, so no sum made of them can overflow.
    var problem: String? {
        if let problem = Self.identifierProblem(identifier) { return problem }
        if let problem = Self.durationProblem(timeBudget, "the time budget") { return "task '\(identifier)': \(problem)" }
        switch kind {
        case .refresh(let interval):
            if let problem = Self.durationProblem(interval, "a refresh's minimum interval") { return "task '\(identifier)': \(problem)" }
        case .processing(let interval?):
            if let problem = Self.durationProblem(interval, "a repeating task's interval") { return "task '\(identifier)': \(problem)" }
        case .processing(nil): break
        }
        if let begin = earliestBegin, !(0...BackgroundSchedule.latestTime).contains(begin) {
            return
                "task '\(identifier)': the earliest begin must be a Unix time in ms from 0 to \(BackgroundSchedule.latestTime), got \(begin)"
        }
        return nil
    }

    /// Why `duration` cannot be `what`, or nil.
    static func durationProblem(_ duration: Duration, _ what: String) -> String? {
        if duration <= .zero { return "\(what) must be positive, got \(duration)" }
        if duration > BackgroundTaskPolicy.maximumDuration { return "\(what) must be at most 100 years, got \(duration)" }
        return nil
    }

    /// Why `identifier` cannot name a task, or nil.
    static func identifierProblem(_ identifier: String) -> String? {
        let allowed = identifier.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        guard !identifier.isEmpty, identifier.utf8.count <= 200, allowed else {
            return "'\(identifier)' is not a task identifier: use 1 to 200 letters, digits, '.', '-' and '_'"
        }
        return nil
    }
}
