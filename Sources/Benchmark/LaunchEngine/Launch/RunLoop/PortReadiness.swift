import Glibc
import LaunchSupport

/// `--ready port:N`: ready once a connection to the port is accepted. The
/// port cannot be polled, so the loop comes back every millisecond while
/// the run is not ready.
final class PortReadiness: RunEventSource {
    private var probe: PortProbe
    private var fired = false
    /// How often the port is tried.
    static let interval: UInt64 = 1_000_000

    init(port: Int) { probe = PortProbe(port: port) }

    var pollRequest: pollfd? { nil }
    var retryInterval: UInt64? { fired ? nil : Self.interval }

    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent] {
        guard !fired, probe.isAccepting() else { return [] }
        fired = true
        return [.ready(at: monotonicNanoseconds())]
    }
}
