import LaunchProf

/// The inherited socket could not be served: it is not a listening stream
/// socket (a descriptor named by `LISTEN_FDS` that is a file, a closed
/// descriptor, a datagram socket), or NIO could not register it.
public struct InheritedSocketError: Error, Sendable, CustomStringConvertible {
    /// The socket the process was started with.
    public var socket: ActivatedSocket
    /// What NIO said.
    public var reason: String

    /// The error for `socket`, with NIO's `reason`.
    public init(socket: ActivatedSocket, reason: String) {
        self.socket = socket
        self.reason = reason
    }

    /// The socket, what NIO said, and what a socket-activated server needs.
    public var description: String {
        "cannot accept on the inherited socket \(socket.descriptor) ('\(socket.name)'): \(reason); "
            + "a socket-activated server needs a listening stream socket there (systemd's ListenStream=)"
    }
}
