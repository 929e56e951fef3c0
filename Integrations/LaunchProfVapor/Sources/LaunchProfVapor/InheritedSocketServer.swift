import LaunchProf
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import Synchronization
import Vapor

/// A Vapor `Server` on a socket this process was given: the listening
/// socket systemd's socket activation (or `launchprof run --activate`)
/// started it with, whose first connection is already waiting. Vapor's own
/// `HTTPServer` can only bind an address of its `BindAddress`; this one
/// takes the socket with NIO's `ServerBootstrap.withBoundSocket(_:)`.
///
/// Each connection is HTTP/1.1 (NIOHTTP1's server pipeline, pipelined
/// requests answered in order, a 400 for a malformed one), and each request
/// is answered by the application's responder (`app.responder.current`,
/// its middleware and routes) through ``InheritedSocketHandler``. Of
/// `app.http.server.configuration`, the server name, `tcpNoDelay` and
/// `idleTimeout` apply; TLS, HTTP/2 and compression do not.
/// ``VaporLaunch/execute(_:)`` uses it when the process was
/// socket-activated; the address the serve command is given is then not
/// bound. `shutdown()` stops accepting and lets each open connection finish
/// the request it is in (NIOExtras' `ServerQuiescingHelper`).
final class InheritedSocketServer: Server, Sendable {
    let application: Application
    let socket: ActivatedSocket
    private let state = Mutex<State>(.idle)

    private enum State {
        case idle
        case running(any Channel, ServerQuiescingHelper)
        case stopped
    }

    init(application: Application, socket: ActivatedSocket) {
        self.application = application
        self.socket = socket
    }

    var onShutdown: EventLoopFuture<Void> {
        switch state.withLock({ $0 }) {
        case .running(let channel, _): channel.closeFuture
        case .idle, .stopped: application.eventLoopGroup.any().makeSucceededVoidFuture()
        }
    }

    @available(*, noasync, message: "Use the async start(address:) method instead.")
    func start(address: BindAddress?) throws {
        try started(bind(address: address).wait())
    }

    func start(address: BindAddress?) async throws {
        try started(await bind(address: address).get())
    }

    @available(*, noasync, message: "Use the async shutdown() method instead.")
    func shutdown() {
        try? quiesce()?.wait()
    }

    func shutdown() async {
        try? await quiesce()?.get()
    }

    /// Binds the inherited socket; a bootstrap failure (a descriptor that is
    /// not a socket, a closed one) is an ``InheritedSocketError``.
    private func bind(address: BindAddress?) -> EventLoopFuture<(any Channel, ServerQuiescingHelper)> {
        let application = self.application
        let socket = self.socket
        if let address {
            let given =
                switch address {
                case .hostname(let host, let port): "\(host ?? "the configured host"):\(port.map(String.init) ?? "the configured port")"
                case .unixDomainSocket(let path): path
                }
            application.logger.notice(
                "Socket-activated: serving on the inherited socket \(socket.descriptor) ('\(socket.name)'), not on \(given)")
        }
        let group = application.eventLoopGroup
        let quiescing = ServerQuiescingHelper(group: group)
        let http = application.http.server.configuration
        let handling = InheritedSocketHandler.Configuration(
            application: application, maxBodySize: application.routes.defaultMaxBodySize.value,
            serverName: http.serverName, date: HTTPDate())
        return ServerBootstrap(group: group)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Vapor's own options where they apply: TCP_NODELAY on a
                    // TCP socket (not on a Unix one), its idle timeout.
                    if http.tcpNoDelay, channel.localAddress?.protocol != .unix {
                        try channel.syncOptions?.setOption(.socketOption(.tcp_nodelay), value: 1)
                    }
                    if let idleTimeout = http.idleTimeout {
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: idleTimeout))
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(InheritedSocketHandler(handling))
                }
            }
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 1)
            .withBoundSocket(socket.descriptor)
            .map { ($0, quiescing) }
            .flatMapErrorThrowing { error in
                quiescing.initiateShutdown(promise: nil)
                throw InheritedSocketError(socket: socket, reason: "\(error)")
            }
    }

    private func started(_ running: (any Channel, ServerQuiescingHelper)) {
        state.withLock { $0 = .running(running.0, running.1) }
        application.logger.notice(
            "Server started and accepting on the inherited socket \(socket.descriptor) ('\(socket.name)')")
    }

    /// Stops accepting and closes each connection once it is idle: the
    /// future is of every connection closed; nil when none was started.
    private func quiesce() -> EventLoopFuture<Void>? {
        let running = state.withLock { state -> ServerQuiescingHelper? in
            defer { state = .stopped }
            if case .running(_, let quiescing) = state { return quiescing }
            return nil
        }
        guard let running else { return nil }
        let promise = application.eventLoopGroup.any().makePromise(of: Void.self)
        running.initiateShutdown(promise: promise)
        return promise.futureResult
    }
}
