import LaunchProf

/// One move of the state machine, as handlers and the event stream see it.
public struct LifecycleTransition: Sendable, Equatable, CustomStringConvertible {
    /// The state left.
    public var from: LifecycleState
    /// The state entered.
    public var to: LifecycleState
    /// What caused it: a signal, launch complete, a change of the terminal's foreground group.
    public var cause: LifecycleCause
    /// When the transition happened, CLOCK_MONOTONIC nanoseconds.
    public var nanoseconds: UInt64
    /// Leaving `active`: how long the active session that ends here lasted
    /// (since the process last became active).
    public var activeSession: Duration?
    /// Leaving `background` for `inactive` (on the way back to active): how
    /// long the process was in background, suspended stops included.
    public var timeInBackground: Duration?

    /// A transition from `from` to `to`, caused by `cause`, at `nanoseconds` (`CLOCK_MONOTONIC`).
    public init(
        from: LifecycleState, to: LifecycleState, cause: LifecycleCause, nanoseconds: UInt64, activeSession: Duration? = nil,
        timeInBackground: Duration? = nil
    ) {
        self.from = from
        self.to = to
        self.cause = cause
        self.nanoseconds = nanoseconds
        self.activeSession = activeSession
        self.timeInBackground = timeInBackground
    }

    public var description: String {
        var text = "\(from) -> \(to) (\(cause))"
        if let activeSession { text += ", active for \(activeSession)" }
        if let timeInBackground { text += ", in background for \(timeInBackground)" }
        return text
    }
}
