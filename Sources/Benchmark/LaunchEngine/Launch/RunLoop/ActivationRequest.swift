import Glibc
import LaunchSupport

/// `--activate`: a request through the activated socket, driven by the
/// run loop. The first is sent as soon as the program is spawned (it waits
/// in the listening socket's backlog while the program launches): its
/// whole response is ready, and its first byte is noted. The warm one is
/// sent once the program is up (`RunAction/sendWarmRequest`) and timed
/// from connect to the whole response. Both are bounded by the phase's
/// deadline and end with the run, like every other wait.
final class ActivationRequest: RunEventSource {
    enum Role { case first, warm }

    let role: Role
    private var client: ActivationClient
    private var reported = false

    init(_ role: Role, address: ActivationAddress, request: SocketActivation.Request) {
        self.role = role
        client = ActivationClient(address: address, request: request)
    }

    /// CLOCK_MONOTONIC of the response's first byte.
    var firstByteAt: UInt64? { client.firstByteAt }

    var pollRequest: pollfd? {
        client.isFinished ? nil : pollfd(fd: client.fd, events: client.events, revents: 0)
    }

    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent] {
        if revents != 0 { client.step(revents: revents) }
        guard client.isFinished, !reported else { return [] }
        reported = true
        switch (client.state, role) {
        case (.failed(let message), .first):
            return [.failed(.measure("--activate: the first request got no whole response: \(message)"))]
        case (.failed(let message), .warm):
            return [.warmResponse(.failure(ActivationFailure(message: message)))]
        case (_, .first):
            return [.ready(at: client.completedAt ?? now)]
        case (_, .warm):
            return [.warmResponse(.success((client.completedAt ?? now) &- client.connectedAt))]
        }
    }

    func close() { client.close() }
}
