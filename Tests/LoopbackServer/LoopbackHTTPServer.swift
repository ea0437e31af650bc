import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP/1.1 server on 127.0.0.1, on an ephemeral port, that the feed tests
/// start and stop: each path answers as a ``Route`` says, and every request is
/// recorded (path and headers) so tests can check what `ingest feed` sent.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// How one path answers.
    public struct Route: Sendable {
        public var status: HTTPResponseStatus = .ok
        public var headers: [(String, String)] = []
        public var body: [UInt8] = []
        /// Wait this long before the response's head (a slow server).
        public var delay: TimeAmount = .zero
        /// Send only this many bytes of the body (with the full Content-Length),
        /// then close the connection: a server that dies mid-body.
        public var cutAfter: Int?
        /// Send no Content-Length (an HTTP/1.0 response, its body ended by closing
        /// the connection), and with `cutAfter`, only that much of the body: a body
        /// cut short that nothing says was cut.
        public var closeDelimited = false
        /// Send the body in pieces of this size, `pause` apart (a trickle).
        public var piece: Int?
        public var pause: TimeAmount = .zero
        /// Answer 304 when the request's `If-None-Match` is this.
        public var notModifiedForETag: String?
        /// Answer 304 when the request's `If-Modified-Since` is this.
        public var notModifiedSince: String?

        public init(status: HTTPResponseStatus = .ok, headers: [(String, String)] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A feed with its content type.
        public static func feed(
            _ text: String, type: String = "application/rss+xml; charset=utf-8",
            headers: [(String, String)] = []
        ) -> Route {
            Route(headers: [("Content-Type", type)] + headers, body: Array(text.utf8))
        }

        /// A redirect to `location`.
        public static func redirect(_ status: HTTPResponseStatus, to location: String) -> Route {
            Route(status: status, headers: [("Location", location)])
        }
    }

    /// A request as the server received it.
    public struct Request: Sendable {
        public var path: String
        public var headers: [(String, String)]

        public func header(_ name: String) -> String? {
            headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }
    }

    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var channel: Channel!
    private let state = NIOLockedValueBox(State())

    private struct State {
        var routes: [String: Route] = [:]
        var requests: [Request] = []
        var open = 0
        var mostOpen = 0
    }

    /// The port the server listens on.
    public private(set) var port = 0

    public init() throws {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withErrorHandling: true).flatMap {
                    channel.pipeline.addHandler(Handler(server: self))
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress!.port!
    }

    deinit {
        try? stop()
        try? group.syncShutdownGracefully()
    }

    /// Stops listening: the port then refuses connections.
    public func stop() throws {
        guard let channel, channel.isActive else { return }
        try channel.close().wait()
    }

    /// Dies, as a crashed server does: every connection closes at once, whatever
    /// it was sending, and the port refuses new ones.
    public func kill() throws {
        try group.syncShutdownGracefully()
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Sets how `path` answers from now on.
    public func route(_ path: String, _ route: Route) {
        state.withLockedValue { $0.routes[path] = route }
    }

    /// Every request so far, in order.
    public var requests: [Request] { state.withLockedValue { $0.requests } }

    /// The requests for `path`.
    public func requests(_ path: String) -> [Request] { requests.filter { $0.path == path } }

    /// The most requests answered at the same time.
    public var mostConcurrent: Int { state.withLockedValue { $0.mostOpen } }

    private func received(_ request: Request) -> Route? {
        state.withLockedValue { state in
            state.requests.append(request)
            state.open += 1
            state.mostOpen = max(state.mostOpen, state.open)
            return state.routes[request.path]
        }
    }

    private func answered() {
        state.withLockedValue { $0.open -= 1 }
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let server: LoopbackHTTPServer
        private var head: HTTPRequestHead?

        init(server: LoopbackHTTPServer) { self.server = server }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): self.head = head
            case .body: break
            case .end:
                guard let head else { return }
                let request = Request(path: head.uri, headers: head.headers.map { ($0.name, $0.value) })
                let route = server.received(request) ?? Route(status: .notFound, body: Array("no such route".utf8))
                let loop = context.eventLoop
                let bound = NIOLoopBound(context, eventLoop: loop)
                loop.scheduleTask(in: route.delay) {
                    self.respond(route, to: request, context: bound.value)
                }
            }
        }

        private func respond(_ route: Route, to request: Request, context: ChannelHandlerContext) {
            var route = route
            // A 304 carries the caching headers a 200 would (RFC 9110, 15.4.5).
            let caching = route.headers.filter { ["cache-control", "expires"].contains($0.0.lowercased()) }
            if let etag = route.notModifiedForETag, request.header("If-None-Match") == etag {
                route = Route(status: .notModified, headers: [("ETag", etag)] + caching)
            } else if let since = route.notModifiedSince, request.header("If-Modified-Since") == since {
                route = Route(status: .notModified, headers: [("Last-Modified", since)] + caching)
            }
            var headers = HTTPHeaders(route.headers)
            if route.closeDelimited {
                headers.replaceOrAdd(name: "Connection", value: "close")
                context.write(
                    wrapOutboundOut(.head(HTTPResponseHead(version: .http1_0, status: route.status, headers: headers))),
                    promise: nil)
                let buffer = context.channel.allocator.buffer(
                    bytes: route.body.prefix(route.cutAfter ?? route.body.count))
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer)))).whenComplete { _ in
                    bound.value.close(promise: nil)
                    self.server.answered()
                }
                return
            }
            if route.status != .notModified {
                headers.replaceOrAdd(name: "Content-Length", value: String(route.body.count))
            }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: route.status, headers: headers))),
                promise: nil)
            if let cut = route.cutAfter {
                let buffer = context.channel.allocator.buffer(bytes: route.body.prefix(cut))
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer)))).whenComplete { _ in
                    bound.value.close(promise: nil)
                    self.server.answered()
                }
                return
            }
            guard let piece = route.piece, route.body.count > piece else {
                if !route.body.isEmpty {
                    context.write(
                        wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: route.body)))),
                        promise: nil)
                }
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in self.server.answered() }
                return
            }
            sendPieces(route.body[...], piece: piece, pause: route.pause, context: context)
        }

        private func sendPieces(
            _ rest: ArraySlice<UInt8>, piece: Int, pause: TimeAmount, context: ChannelHandlerContext
        ) {
            guard !rest.isEmpty else {
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in self.server.answered() }
                return
            }
            let buffer = context.channel.allocator.buffer(bytes: rest.prefix(piece))
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: pause) {
                self.sendPieces(rest.dropFirst(piece), piece: piece, pause: pause, context: bound.value)
            }
        }
    }
}
