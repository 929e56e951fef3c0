import Hummingbird
import HummingbirdCore
import LaunchProf
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// An application served on an inherited socket: what Hummingbird's
/// `ApplicationProtocol.run()` does, with the server bound to the socket
/// (``InheritedSocketServer``) instead of to the configuration's address.
///
/// The request handling is Hummingbird's, step for step: a request context
/// made from the channel and a logger carrying `hb.request.id`, the
/// responder's answer (a 500 for an error that is not a parser error), the
/// `Date` and `Server` headers, then the application's services and its
/// processes to run before the server starts. Hummingbird's own date cache
/// and prelude service are internal to it, so they are done here the same way.
struct InheritedSocketApplication<Base: ApplicationProtocol>: Service {
    let base: Base
    let socket: ActivatedSocket
    let http1: HTTP1Channel.Configuration

    func run() async throws {
        let responder = try await base.responder
        let date = HTTPDate()
        let logger = base.logger
        let serverName = base.configuration.serverName
        let http = HTTP1Channel(
            responder: { request, writer, channel in
                var requestLogger = logger
                requestLogger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
                let context = Base.Responder.Context(source: .init(channel: channel, logger: requestLogger))
                var response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch let error as HTTPParserError {
                    throw error
                } catch {
                    requestLogger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
                    response = Response(status: .internalServerError, body: .init())
                }
                response.headers[.date] = date.now
                if let serverName { response.headers[.server] = serverName }
                do {
                    try await writer.write(response: response.head, body: response.body)
                } catch is HTTPParserError {
                    // Rethrown, it would make a second response: the
                    // connection is closed instead (as Hummingbird's own
                    // error for it, which is package-internal, does).
                    throw ResponseWriteFailed()
                }
            }, configuration: http1)
        let processes = base.processesRunBeforeServerStart
        let server = InheritedSocketServer(
            socket: socket, childChannel: http, onServerRunning: { await base.onServerRunning($0) },
            eventLoopGroup: base.eventLoopGroup, logger: logger, prelude: processes)
        let group = ServiceGroup(configuration: .init(services: base.services + [server], logger: logger))
        try await group.run()
    }
}

/// A parser error while the response was being written.
private struct ResponseWriteFailed: Error {}
