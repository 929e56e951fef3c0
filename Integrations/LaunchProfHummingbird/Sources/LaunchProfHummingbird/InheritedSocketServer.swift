import HummingbirdCore
import LaunchProf
import Logging
import NIOCore
import NIOExtras
import NIOPosix
import ServiceLifecycle

/// Hummingbird's HTTP server on a socket this process was given, bound by
/// NIO's `ServerBootstrap.bind(_ socket:)` (its `withBoundSocket`), where
/// HummingbirdCore's own `Server` can only bind an address of its
/// ``BindAddress``. Otherwise it runs as that one does: the child channel
/// (an `HTTP1Channel`) handles each connection, `onServerRunning` is called
/// once the socket is registered, and a graceful shutdown stops accepting
/// and lets open connections finish their request.
struct InheritedSocketServer<ChildChannel: ServerChildChannel>: Service {
    let socket: ActivatedSocket
    let childChannel: ChildChannel
    let onServerRunning: @Sendable (any Channel) async -> Void
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    /// The application's processes to run before the server starts.
    let prelude: [@Sendable () async throws -> Void]

    func run() async throws {
        for process in prelude { try await process() }
        let quiescing = ServerQuiescingHelper(group: eventLoopGroup)
        let serverChannel: NIOAsyncChannel<ChildChannel.Value, Never>
        do {
            serverChannel = try await ServerBootstrap(group: eventLoopGroup)
                .serverChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                    }
                }
                .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
                .bind(socket.descriptor, serverBackPressureStrategy: nil) { channel in
                    childChannel.setup(channel: channel, logger: logger)
                }
        } catch {
            quiescing.initiateShutdown(promise: nil)
            throw InheritedSocketError(socket: socket, reason: "\(error)")
        }
        logger.info("Server started and accepting on the inherited socket \(socket.descriptor) ('\(socket.name)')")
        await withGracefulShutdownHandler {
            await onServerRunning(serverChannel.channel)
            await withDiscardingTaskGroup { group in
                do {
                    try await serverChannel.executeThenClose { inbound in
                        for try await connection in inbound {
                            group.addTask { await childChannel.handle(value: connection, logger: logger) }
                        }
                    }
                } catch {
                    logger.error("Accepting on the inherited socket: \(error)")
                }
            }
        } onGracefulShutdown: {
            quiescing.initiateShutdown(promise: nil)
        }
    }
}
