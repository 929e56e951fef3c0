import Glibc

/// One thing a run waits on: a channel, a socket, a probe, the interrupt.
/// The run loop asks each source what to poll, polls them all at once, and
/// lets each turn what it read into `RunEvent`s; no source blocks, and
/// each reads a bounded slice per round, so the loop keeps its deadlines
/// whatever a program sends.
protocol RunEventSource: AnyObject {
    /// The descriptor and the events to wait for this round; nil: nothing
    /// to wait on now.
    var pollRequest: pollfd? { get }
    /// How soon the loop must come back to this source although nothing was
    /// polled (a probe that retries), in nanoseconds; nil: no sooner than
    /// the phase's deadline.
    var retryInterval: UInt64? { get }
    /// What happened: after poll reported `revents` for ``pollRequest``, or
    /// with `revents` 0 on every round (a source that retries or checks).
    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent]
}

extension RunEventSource {
    var retryInterval: UInt64? { nil }
}
