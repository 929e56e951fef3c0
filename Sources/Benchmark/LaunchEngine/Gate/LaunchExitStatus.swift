/// What a launch benchmark ends with, as the `launchprof` command's exit
/// status: one home for the numbers the README documents.
public enum LaunchExitStatus: Int32, Sendable, Equatable, CustomStringConvertible {
    /// Every target launched, every budget met, no regression.
    case success = 0
    /// A budget exceeded or a regression against the baseline.
    case gateFailed = 1
    /// Bad usage, a bad config file or an input that cannot be read or written.
    case usage = 2
    /// A target failed to launch (crash, timeout, non-zero exit) or to be profiled.
    case launchFailed = 3
    /// `launchprof gate`: the budget (--max-time, --max-runs) ended before
    /// the change's interval was decided (docs/gate.md).
    case inconclusive = 4
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT (or a cancelled task) stopped it.
    case interrupted = 130

    public var description: String {
        switch self {
        case .success: "success"
        case .gateFailed: "a budget exceeded or a regression"
        case .usage: "bad usage or input"
        case .launchFailed: "a target failed to launch"
        case .inconclusive: "inconclusive: the budget ended before a verdict"
        case .interrupted: "interrupted"
        }
    }
}

extension RecordError {
    /// What `launchprof record` and `profile` exit with: a program that cannot
    /// be started, a sample file that cannot be made or a trace that cannot
    /// be written where asked is bad usage (2), as in `run`; an interrupt
    /// 130; anything the program did (crash, no trace, not ready) a failed
    /// launch (3).
    public var status: LaunchExitStatus {
        switch self {
        case .launch, .output, .sampleSink: .usage
        case .interrupted: .interrupted
        default: .launchFailed
        }
    }
}

extension ProfileError {
    /// What `launchprof profile` exits with (see `RecordError/status`); a
    /// preload library that cannot be read is bad usage.
    public var status: LaunchExitStatus {
        switch self {
        case .record(let error): error.status
        case .missingPreload, .directory: .usage
        case .symbolize, .write: .launchFailed
        }
    }
}
