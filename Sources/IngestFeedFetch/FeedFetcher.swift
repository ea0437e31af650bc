import AsyncHTTPClient
import Foundation
import IngestCompression
import IngestCore
import IngestFeeds
import NIOCore
import NIOHTTP1

/// Fetches feeds over HTTP, streaming each body into the feed reader as it
/// arrives: memory stays flat whatever the feed's size.
///
/// ```swift
/// let fetcher = FeedFetcher()
/// let result = try await fetcher.fetch(FeedRequest(url: URL(string: "https://example.com/feed.xml")!))
/// for item in result.feed?.items.prefix(5) ?? [] { print(item.title ?? "") }
/// try await fetcher.shutdown()
/// ```
///
/// - Conditional GET: `If-None-Match` and `If-Modified-Since` from the request; a
///   304 is ``FeedFetchResult/notModified(_:)`` — unless the request sent no
///   validator (there was nothing to be current): then it is a temporary failure.
/// - Redirects are followed here, not by the client, to tell them apart: the
///   response's ``FeedResponse/permanentURL`` moves along 301 and 308 redirects
///   only (as long as every redirect before was permanent too).
/// - Every address is checked (``/IngestFeeds/FetchableURL``) before the client
///   is given it, the first and each `Location`.
/// - `Accept-Encoding: gzip`. The body is decompressed as a file is, whatever its
///   `Content-Encoding` says (a gzip body sent without one is read too), and
///   refused when it expands more than 100 times. An HTML page read for the feed
///   it advertises is decompressed the same way, at most 4 MiB of it.
/// - The body is read strictly as it comes, on a thread of its own; when the XML
///   is not well-formed, again in recovering mode from a copy spooled to disk
///   (``IngestFeeds/FeedReader/readOnce(_:decode:_:)``).
/// - The `Content-Type` charset applies to XML as RFC 7303 says (a byte order mark
///   wins); JSON is UTF-8 whatever it says.
/// - Timeouts for connecting, the head, each wait for the body and the whole
///   fetch; a byte limit; at most so many fetches from one host at a time
///   (``Configuration``).
///
/// Call ``shutdown()`` once done with it.
public struct FeedFetcher: Sendable {
    /// How it fetches.
    public let configuration: Configuration
    let client: HTTPClient
    private let limiter: HostLimiter

    /// A fetcher with its own HTTP client, configured as `configuration` says.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var settings = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: Self.timeAmount(configuration.connectTimeout),
                read: Self.timeAmount(configuration.readTimeout)),
            decompression: .disabled)
        // An idle connection keeps its receive buffers (SwiftNIO pools up to four of
        // 64 KiB each): over a list of many hosts, kept five seconds, every host's
        // connections stayed open between its feeds. A host's next feed that comes
        // within 0.3 s still reuses the connection.
        settings.connectionPool = .init(idleTimeout: .milliseconds(300))
        // A connection refused fails the fetch at once, as curl's and gofeed's do
        // (the archive retries it on a later run). Retried, it waited out the whole
        // head timeout, so each feed of a host that went down cost that long.
        settings.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: settings)
        limiter = HostLimiter(perHost: configuration.maxFetchesPerHost)
    }

    /// Closes the HTTP client's connections; no fetch may start after.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Fetches the feed `request` names.
    ///
    /// - Parameters:
    ///   - request: the address and the validators stored from the last fetch.
    ///   - onItem: called with each item as it is read, and the feed so far, on
    ///     the thread reading the body (blocking it holds the download back). An
    ///     error it throws ends the fetch and is rethrown as it is. Without it,
    ///     the result's feed holds every item.
    ///   - onResponse: called once the answer is known to be a feed, before its
    ///     first item.
    /// - Returns: not modified, or the feed, with the response.
    /// - Throws: ``FeedFetchError``, or what `onItem` threw.
    public func fetch(
        _ request: FeedRequest, onItem: (@Sendable (FeedItem, Feed) throws -> Void)? = nil,
        onResponse: @escaping @Sendable (FeedResponse) -> Void = { _ in }
    ) async throws -> FeedFetchResult {
        let host = HostQueues<FeedRequest>.host(of: request.url)
        await limiter.acquire(host)
        do {
            let result = try await fetchWithinMaxTime(request, onResponse: onResponse, onItem: onItem)
            await limiter.release(host)
            return result
        } catch {
            await limiter.release(host)
            throw error
        }
    }

    /// The fetch, raced against ``Configuration/maxTime``: when that comes first,
    /// the body is cut off and the fetch fails as timed out.
    private func fetchWithinMaxTime(
        _ request: FeedRequest, onResponse: @escaping @Sendable (FeedResponse) -> Void,
        onItem: (@Sendable (FeedItem, Feed) throws -> Void)?
    ) async throws -> FeedFetchResult {
        let maxTime = configuration.maxTime
        let timedOut = FeedFetchError(
            .timedOut, url: request.url,
            message: "not read within \(maxTime.components.seconds) s in all (timed out)")
        let abort = FetchAbort(timedOut)
        return try await withThrowingTaskGroup(of: FeedFetchResult?.self) { race in
            race.addTask { try await run(request, abort: abort, onResponse: onResponse, onItem: onItem) }
            race.addTask {
                try await Task.sleep(for: maxTime)
                abort.fire()
                return nil
            }
            defer { race.cancelAll() }
            let first: FeedFetchResult??
            do {
                first = try await race.next()
            } catch {
                if abort.fired { throw timedOut }
                throw error
            }
            guard let result = first ?? nil, !abort.fired else { throw timedOut }
            return result
        }
    }

    private func run(
        _ request: FeedRequest, abort: FetchAbort, onResponse: @escaping @Sendable (FeedResponse) -> Void,
        onItem: (@Sendable (FeedItem, Feed) throws -> Void)?
    ) async throws -> FeedFetchResult {
        let started = Date()
        var current = request.url
        var stored = request.url
        var permanentSoFar = true
        var status: Int?
        var discovered: DiscoveredFeed?
        do {
            try check(request.url, asked: request.url)
            for _ in 0...configuration.maxRedirects {
                var outgoing = HTTPClientRequest(url: current.absoluteString)
                outgoing.headers.add(name: "User-Agent", value: configuration.userAgent)
                outgoing.headers.add(name: "Accept", value: Self.accept)
                outgoing.headers.add(name: "Accept-Encoding", value: "gzip")
                if let etag = request.etag { outgoing.headers.add(name: "If-None-Match", value: etag) }
                if let lastModified = request.lastModified {
                    outgoing.headers.add(name: "If-Modified-Since", value: lastModified)
                }
                let response = try await client.execute(
                    outgoing, deadline: .now() + Self.timeAmount(configuration.headTimeout))
                status = Int(response.status.code)
                func answer() -> FeedResponse {
                    Self.response(
                        request.url, current, stored, status: status ?? 0, response.headers, date: started,
                        discovered: discovered)
                }
                switch response.status.code {
                case 301, 302, 303, 307, 308:
                    let next = try await Self.redirectTarget(of: response, from: current)
                    try check(next, asked: request.url, redirect: response.status.code)
                    let permanent = response.status.code == 301 || response.status.code == 308
                    permanentSoFar = permanentSoFar && permanent
                    if permanentSoFar { stored = next }
                    current = next
                    continue
                case 304:
                    try await Self.drain(response.body)
                    guard request.isConditional else {
                        throw FeedFetchError(
                            .notModifiedWithoutValidators, url: current,
                            message: "HTTP 304 Not Modified, but the request sent no validators (no stored "
                                + "ETag or Last-Modified): no feed to keep", status: status)
                    }
                    return .notModified(answer())
                case 200..<300
                where configuration.readsAdvertisedFeed && discovered == nil
                    && ContentType.isHTML(response.headers.first(name: "Content-Type")):
                    // A page, not a feed: read the feed it advertises, and keep its
                    // address as a permanent redirect's, so the next fetch asks it directly.
                    let feed = try await Self.discover(in: response.body, of: current, status: status)
                    guard let next = URL(string: feed.url)?.absoluteURL else {
                        throw FeedFetchError(
                            .noAdvertisedFeed, url: current,
                            message: "the page advertises a feed at an address that is no URL: \(feed.url)",
                            status: status)
                    }
                    try check(next, asked: request.url)
                    discovered = feed
                    if permanentSoFar { stored = next }
                    current = next
                    continue
                case 200..<300:
                    return try await read(response, answer(), abort: abort, onResponse: onResponse, onItem: onItem)
                default:
                    throw try await Self.statusFailure(response, url: current)
                }
            }
            throw tooManyRedirects(url: current, status: status)
        } catch let error as HandlerFailure {
            throw error.error
        } catch {
            var failure = classify(error, url: current, status: status)
            failure.discoveredFeed = discovered
            throw failure
        }
    }

    /// Streams the body to a thread that reads it (``IngestFeeds/FeedReader/readOnce(_:decode:_:)``,
    /// compressed bodies decompressed) and returns the feed once that thread is done.
    private func read(
        _ response: HTTPClientResponse, _ answer: FeedResponse, abort: FetchAbort,
        onResponse: @Sendable (FeedResponse) -> Void,
        onItem: (@Sendable (FeedItem, Feed) throws -> Void)?
    ) async throws -> FeedFetchResult {
        let encoding = response.headers.first(name: "Content-Encoding")?.trimmingCharacters(in: .whitespaces)
            .lowercased()
        if let encoding, !["", "identity", "gzip", "x-gzip"].contains(encoding) {
            try await Self.drain(response.body)
            throw FeedFetchError(
                .unsupportedEncoding, url: answer.url,
                message: "the body is encoded as \"\(encoding)\", which ingest does not read (it asks for gzip)",
                status: answer.status)
        }
        onResponse(answer)
        let options = FeedReader.Options(
            baseURL: answer.url, charset: ContentType.charset(answer.contentType),
            onWarning: configuration.onWarning)
        let body = BodyPipe(displayName: answer.url.absoluteString)
        abort.attach(body)
        let parsed = ThreadEnd()
        let outcome = ParseOutcome()
        let thread = Thread {
            outcome.result = Result { try Self.parse(body, options: options, onItem: onItem) }
            parsed.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        do {
            var received = 0
            for try await buffer in response.body {
                received += buffer.readableBytes
                guard received <= configuration.maxBodyBytes else {
                    throw FeedFetchError(
                        .tooLarge, url: answer.url,
                        message: "the body is larger than the \(configuration.maxBodyBytes) bytes allowed",
                        status: answer.status)
                }
                guard await body.put(buffer) else { break }
            }
            body.finish(nil)
        } catch {
            body.finish(error)
        }
        await parsed.wait()
        return .feed(try outcome.result!.get(), answer)
    }

    /// Reads the feed from `body` on the calling thread; closes `body` when done.
    private static func parse(
        _ body: BodyPipe, options: FeedReader.Options,
        onItem: (@Sendable (FeedItem, Feed) throws -> Void)?
    ) throws -> Feed {
        defer { body.close() }
        var items: [FeedItem] = []
        var feed = try FeedReader(options: options).readOnce(
            body,
            decode: {
                try ExpansionBound($0.decompressingIfCompressed(inputBufferSize: ExpansionBound.inputBufferSize))
            }
        ) { item, feed in
            guard let onItem else { return items.append(item) }
            do {
                try onItem(item, feed)
            } catch {
                throw HandlerFailure(error: error)
            }
        }
        if onItem == nil { feed.items = items }
        return feed
    }

    /// Throws ``FeedFetchError/Kind/invalidURL`` when `url` is not one to give the
    /// client: `invalid URL: port 99999 is out of range 1-65535` — naming the URL
    /// when it is not the one asked, as after `HTTP 301 redirect to an`.
    private func check(_ url: URL, asked: URL, redirect: UInt? = nil) throws {
        do {
            try FetchableURL.check(url)
        } catch {
            let invalid = error.url == asked.absoluteString ? "invalid URL: \(error.problem)" : "\(error)"
            let message = redirect.map { "HTTP \($0) redirect to an \(invalid)" } ?? invalid
            throw FeedFetchError(.invalidURL, url: url, message: message, status: redirect.map { Int($0) })
        }
    }

    /// What the caller learns of a response read at `date`.
    private static func response(
        _ requested: URL, _ url: URL, _ stored: URL, status: Int, _ headers: HTTPHeaders,
        date: Date, discovered: DiscoveredFeed?
    ) -> FeedResponse {
        let cacheControl = headers["Cache-Control"]
        return FeedResponse(
            requestedURL: requested, url: url, permanentURL: stored, status: status,
            etag: headers.first(name: "ETag"), lastModified: headers.first(name: "Last-Modified"),
            cacheControl: cacheControl.isEmpty ? nil : cacheControl.joined(separator: ","),
            expires: headers.first(name: "Expires"), retryAfter: headers.first(name: "Retry-After"),
            contentType: headers.first(name: "Content-Type"), date: date, discoveredFeed: discovered)
    }

    /// The first feed the page in `body` advertises (``IngestFeeds/FeedDiscovery``);
    /// reads at most ``pageLimit`` bytes of it.
    private static func discover(in body: HTTPClientResponse.Body, of page: URL, status: Int?) async throws
        -> DiscoveredFeed
    {
        let feeds = try await advertised(in: body, of: page)
        guard let first = feeds.first else {
            throw FeedFetchError(
                .noAdvertisedFeed, url: page,
                message: "an HTML page that advertises no feed (no <link rel=\"alternate\" "
                    + "type=\"application/rss+xml\"> or Atom or JSON Feed link): name the feed's own URL",
                status: status)
        }
        return first
    }

    /// The feeds the page in `body` advertises, resolved against `page`; reads at
    /// most ``pageLimit`` bytes of it, and of what they decompress to when the page
    /// is compressed.
    static func advertised(in body: HTTPClientResponse.Body, of page: URL) async throws -> [DiscoveredFeed] {
        var bytes: [UInt8] = []
        for try await buffer in body {
            bytes += buffer.readableBytesView.prefix(pageLimit - bytes.count)
            if bytes.count >= pageLimit { break }
        }
        let html = try decompressedPage(bytes, name: page.absoluteString)
        return FeedDiscovery.feeds(inHTML: String(decoding: html, as: UTF8.self), pageURL: page.absoluteString)
    }

    /// A page's bytes decompressed when they are compressed — a server that honours
    /// `Accept-Encoding: gzip`, or one that compresses unasked — as a feed's body is;
    /// at most ``pageLimit`` of them. Bytes that are not compressed come back as they are.
    static func decompressedPage(_ bytes: [UInt8], name: String) throws -> [UInt8] {
        let source = try BytesSource(Data(bytes), displayName: name).decompressingIfCompressed()
        guard source is DecompressingSource else { return bytes }
        var page = [UInt8](repeating: 0, count: pageLimit)
        var count = 0
        while count < pageLimit {
            let read = try page.withUnsafeMutableBytes {
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...]))
            }
            if read == 0 { break }
            count += read
        }
        return Array(page[..<count])
    }

    /// The failure a response outside 2xx and the followed redirects ends a fetch
    /// with, its body drained first.
    static func statusFailure(_ response: HTTPClientResponse, url: URL) async throws -> FeedFetchError {
        try await drain(response.body)
        return FeedFetchError(
            .httpStatus, url: url, message: "HTTP \(response.status.code) \(response.status.reasonPhrase)",
            status: Int(response.status.code), retryAfterHeader: response.headers.first(name: "Retry-After"))
    }

    /// Where a redirect `response` to a request for `current` points, its body
    /// drained first.
    static func redirectTarget(of response: HTTPClientResponse, from current: URL) async throws -> URL {
        try await drain(response.body)
        guard let location = response.headers.first(name: "Location"),
            let next = URL(string: location, relativeTo: current)?.absoluteURL
        else {
            throw FeedFetchError(
                .badRedirect, url: current, message: "HTTP \(response.status.code) redirect without a usable Location",
                status: Int(response.status.code))
        }
        return next
    }

    /// The failure of a fetch that met more redirects than it follows.
    func tooManyRedirects(url: URL, status: Int?) -> FeedFetchError {
        FeedFetchError(
            .badRedirect, url: url, message: "more than \(configuration.maxRedirects) redirects", status: status)
    }

    /// Reads and drops a body that is not a feed (a redirect's, an error page), so
    /// the connection can be used again; at most 64 KiB.
    static func drain(_ body: HTTPClientResponse.Body) async throws {
        var total = 0
        for try await buffer in body {
            total += buffer.readableBytes
            if total > 64 << 10 { return }
        }
    }

    /// Any error met fetching `url` as a ``FeedFetchError``: the library's are
    /// unreadable feeds; the network's are temporary.
    func classify(_ error: any Error, url: URL, status: Int?) -> FeedFetchError {
        if let failure = error as? FeedFetchError { return failure }
        if let error = error as? IngestError {
            return FeedFetchError(.unreadable, url: url, message: error.description, status: status, ingestError: error)
        }
        switch error as? HTTPClientError {
        case .readTimeout?:
            return FeedFetchError(
                .timedOut, url: url, message: "no data for \(Self.words(configuration.readTimeout)) (timed out)",
                status: status)
        case .connectTimeout?:
            return FeedFetchError(
                .timedOut, url: url,
                message: "could not connect within \(Self.words(configuration.connectTimeout)) (timed out)",
                status: status)
        case .deadlineExceeded?:
            return FeedFetchError(
                .timedOut, url: url,
                message: "no response within \(Self.words(configuration.headTimeout)) (timed out)",
                status: status)
        case .remoteConnectionClosed?:
            return FeedFetchError(
                .network, url: url, message: "the server closed the connection before the end of the response",
                status: status)
        case let other?:
            return FeedFetchError(.network, url: url, message: "\(other)", status: status)
        case nil:
            if error is CancellationError {
                return FeedFetchError(.cancelled, url: url, message: "cancelled", status: status)
            }
            if let error = error as? IOError {
                // The system's words for it ("connection refused"), not SwiftNIO's dump.
                return FeedFetchError(
                    .network, url: url, message: String(cString: strerror(error.errnoCode)).lowercased(),
                    status: status)
            }
            return FeedFetchError(.network, url: url, message: "\(error)", status: status)
        }
    }

    /// `30 s`, `0.5 s`.
    private static func words(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}

/// An error the caller's item handler threw, carried out of the reader to be
/// rethrown as it is.
struct HandlerFailure: Error {
    let error: any Error
}

/// What the thread reading a body ended with, handed to the task awaiting it.
private final class ParseOutcome: @unchecked Sendable {
    // Safety: written by the reading thread before it signals its end, read after.
    var result: Result<Feed, any Error>?
}
