/// Why the run loop stopped waiting.
enum RunEnd: Equatable, Sendable {
    /// The process exited (on its own, or after launchprof's SIGTERM).
    case exited
    /// Neither ready nor exited by the timeout; killed.
    case timedOut
    /// Still running when the grace period after SIGTERM was over; killed.
    case killedAfterGrace
    /// Ctrl-C (or another interrupting signal) arrived; killed.
    case interrupted
    /// The run cannot be measured (a record launchprof cannot read, a
    /// failed first request, a lifecycle phase that did not happen); killed.
    case aborted(RunAbort)
}
