import NIOCore
import NIOExtras
import NIOHTTP1
import Vapor

/// One HTTP/1 connection on the inherited socket, answered by Vapor's
/// responder: what Vapor's own channel handlers (internal to it) do, with
/// its public API.
///
/// A request's head and body parts become a Vapor `Request` with its body
/// collected, bounded by `app.routes.defaultMaxBodySize`: a larger body (by
/// its `Content-Length`, or as it arrives) is answered 413 and the
/// connection closed, the rest of it read and dropped. The responder's
/// `Response` is written whole (a streamed body is collected first, with
/// `Response.Body.collect(on:)`), with its `Content-Length`, Vapor's `Date`
/// and `Server` headers, no body for HEAD, 204 and 304, and `Connection:
/// keep-alive` or `close` as the request asked; after `close` the output
/// is shut. NIOHTTP1's pipeline handler before this one holds a pipelined
/// request back until the response before it has ended, and on shutdown
/// closes the connection once it is idle.
///
/// Not served here: protocol upgrades (WebSocket; answered 501) and
/// request bodies streamed to a route (`body: .stream`), which get the
/// collected body like any other.
final class InheritedSocketHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// What every connection is answered with.
    struct Configuration: Sendable {
        var application: Application
        /// The largest request body collected, in bytes.
        var maxBodySize: Int
        var serverName: String?
        var date: HTTPDate
    }

    let configuration: Configuration
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    /// The request's body is too large: it was answered 413, and what is
    /// left of it is dropped.
    private var refused = false
    private var quiescing = false

    init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard !refused else { return }
            self.head = head
            body = nil
            let length = head.headers.first(name: .contentLength).flatMap { Int($0) }
            if let length, length > configuration.maxBodySize { refuse(context: context) }
        case .body(var chunk):
            guard !refused, head != nil else { return }
            let collected = body?.readableBytes ?? 0
            guard chunk.readableBytes <= configuration.maxBodySize - collected else { return refuse(context: context) }
            if body == nil { body = chunk } else { body?.writeBuffer(&chunk) }
        case .end:
            guard !refused, let head else { return }
            let body = self.body
            self.head = nil
            self.body = nil
            respond(to: head, body: body, context: context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            // Vapor's idleTimeout, as its own server closes then.
            configuration.application.logger.debug("Closing idle connection")
            return context.close(promise: nil)
        }
        if event is ChannelShouldQuiesceEvent { quiescing = true }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        configuration.application.logger.debug("Connection on the inherited socket: \(error)")
        context.close(promise: nil)
    }

    private func refuse(context: ChannelHandlerContext) {
        refused = true
        head = nil
        body = nil
        configuration.application.logger.debug(
            "Request body larger than \(configuration.maxBodySize) bytes (app.routes.defaultMaxBodySize): 413")
        write(status: .payloadTooLarge, version: .http1_1, context: context)
    }

    private func respond(to head: HTTPRequestHead, body: ByteBuffer?, context: ChannelHandlerContext) {
        let application = configuration.application
        let loop = context.eventLoop
        let request = Request(
            application: application, method: head.method, url: URI(string: head.uri), version: head.version,
            headersNoUpdate: head.headers, collectedBody: body, remoteAddress: context.channel.remoteAddress,
            logger: application.logger, byteBufferAllocator: context.channel.allocator, on: loop)
        let bound = NIOLoopBound((context, self), eventLoop: loop)
        application.responder.current.respond(to: request)
            .flatMap { response in response.body.collect(on: loop).map { (response, $0) } }
            .hop(to: loop)
            .whenComplete { result in
                let (context, handler) = bound.value
                switch result {
                case .success(let (response, collected)):
                    handler.write(response, body: collected, for: head, context: context)
                case .failure(let error):
                    application.logger.report(error: error)
                    handler.write(status: .internalServerError, version: head.version, context: context)
                }
            }
    }

    private func write(_ response: Response, body: ByteBuffer?, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        guard response.upgrader == nil else {
            configuration.application.logger.warning("Protocol upgrades are not served on an inherited socket: 501")
            return write(status: .notImplemented, version: request.version, context: context)
        }
        let keepAlive = request.isKeepAlive && !quiescing
        var headers = response.headers
        let status = response.status
        let bodiless = status == .noContent || status == .notModified || status.code < 200
        headers.remove(name: .transferEncoding)
        if bodiless {
            headers.remove(name: .contentLength)
        } else {
            headers.replaceOrAdd(name: .contentLength, value: "\(body?.readableBytes ?? 0)")
        }
        let sendsBody = !bodiless && request.method != .HEAD
        write(
            HTTPResponseHead(version: request.version, status: status, headers: headers),
            body: sendsBody ? body : nil, keepAlive: keepAlive, context: context)
    }

    /// An answer of the server's own (413, 500, 501), after which the
    /// connection is closed.
    private func write(status: HTTPResponseStatus, version: HTTPVersion, context: ChannelHandlerContext) {
        let head = HTTPResponseHead(version: version, status: status, headers: ["content-length": "0"])
        write(head, body: nil, keepAlive: false, context: context)
    }

    private func write(_ head: HTTPResponseHead, body: ByteBuffer?, keepAlive: Bool, context: ChannelHandlerContext) {
        var head = head
        head.headers.replaceOrAdd(name: .date, value: configuration.date.now)
        if let serverName = configuration.serverName { head.headers.replaceOrAdd(name: .server, value: serverName) }
        head.headers.replaceOrAdd(name: .connection, value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body, body.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        guard !keepAlive else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.whenComplete { _ in bound.value.close(mode: .output, promise: nil) }
    }
}
