import Glibc

/// Ctrl-C (and SIGTERM, SIGHUP, SIGQUIT) as a run event: the monitor's
/// self-pipe is in every poll, so a signal ends the wait at once.
final class InterruptSource: RunEventSource {
    private let monitor: InterruptMonitor

    init(_ monitor: InterruptMonitor) { self.monitor = monitor }

    var pollRequest: pollfd? { pollfd(fd: monitor.descriptor, events: Int16(POLLIN), revents: 0) }

    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent] {
        monitor.isInterrupted ? [.interrupted] : []
    }
}
