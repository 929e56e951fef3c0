import LaunchProf

/// The process was socket-activated, and Vapor 4 cannot serve on the
/// socket it was given.
///
/// Vapor's `BindAddress` is a host and port or a Unix socket path, and its
/// `HTTPServer` always binds a new socket for it
/// (`ServerBootstrap.bind(host:port:)` or `bind(unixDomainSocketPath:)`).
/// A `Server` of one's own (`app.servers.use`) could bind the descriptor,
/// but not serve Vapor's responder on it without reimplementing Vapor's
/// HTTP/1 server: the channel handlers that turn bytes into Vapor requests
/// and responses (`addVaporHTTP1Handlers`, `HTTPServerRequestDecoder`,
/// `HTTPServerHandler`, `HTTPServerResponseEncoder`) are internal to it.
/// What Vapor would need: a `BindAddress` case for a bound descriptor,
/// passed to NIO's `ServerBootstrap.withBoundSocket(_:)`, or those
/// handlers made public.
public struct InheritedSocketUnsupported: Error, Sendable, CustomStringConvertible {
    /// The sockets the process was started with.
    public var sockets: [ActivatedSocket]

    /// The error for a process started with `sockets`.
    public init(sockets: [ActivatedSocket]) {
        self.sockets = sockets
    }

    public var description: String {
        let names = sockets.map { "\($0.descriptor) ('\($0.name)')" }.joined(separator: ", ")
        return "this process was socket-activated (inherited socket \(names)), but Vapor 4 cannot accept on a socket "
            + "it did not bind: its BindAddress is a host and port or a Unix socket path only. Start it without socket "
            + "activation (launchprof run --ready tracer or --ready port:PORT instead of --activate)."
    }
}
