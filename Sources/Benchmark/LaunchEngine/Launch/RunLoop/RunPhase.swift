/// Where one run is, as the run loop's state machine (`RunStateMachine`)
/// sees it. The phases after ready come in this order, each only when the
/// run asks for it: the trace file, the warm request, the suspend/resume
/// cycle, the stop. Every phase but the last has a deadline.
enum RunPhase: Equatable, Sendable {
    /// Started; waiting for ready or the exit, until the timeout.
    case launching
    /// Ready; waiting for the program to write its trace (`--trace-runs`),
    /// at most the grace period.
    case awaitingTrace
    /// Ready; the same request again through the activated socket, at most
    /// the timeout (`--activate`).
    case warmRequest
    /// SIGTSTP sent at `sentAt`; waiting for the kernel to report the stop
    /// (`--measure resume`).
    case suspending(sentAt: UInt64)
    /// SIGCONT sent at `sentAt`; waiting for the program's `LP1 resumed`.
    case resuming(sentAt: UInt64)
    /// SIGTERM sent to the group; SIGKILL when the grace period is over.
    case stopping
    /// Nothing more to wait for: the process is gone or being killed.
    case ended(RunEnd)

    /// Whether the loop is done waiting.
    var isEnded: Bool {
        if case .ended = self { return true }
        return false
    }
}
