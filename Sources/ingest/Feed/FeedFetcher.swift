import AsyncHTTPClient
import Foundation
import IngestKit
import NIOCore
import NIOHTTP1

/// Fetches feeds over HTTP with AsyncHTTPClient and streams each body into a
/// feed reader on a thread of its own, handing the items to the source's ``FeedJob`` as they end.
///
/// - Conditional GET: `If-None-Match` and `If-Modified-Since` from what the archive
///   stored; a 304 ends the job as not modified — unless the request sent neither
///   (there was nothing to be current): then it is a temporary failure (75).
/// - Redirects are followed here, not by the client, to tell them apart: the
///   address the feed is stored under moves along 301 and 308 redirects only (as
///   long as every redirect before was permanent too); at most ``maxRedirects``.
/// - Every address is checked (``FetchableURL``) before the client is given it,
///   the first and each `Location`: a bad one fails this source alone (65).
/// - `Accept-Encoding: gzip`. The body is decompressed as a file is, whatever its
///   `Content-Encoding` says (a gzip body sent without one is read too, every
///   member of it), and refused (65) when it expands more than 100 times.
/// - The body is read as standard input is (``FeedJob/readOnce(_:with:decode:_:)``),
///   on a thread of its own: strictly first, recovering from a copy on disk when
///   the XML is not well-formed.
/// - The `Content-Type` charset applies to XML as RFC 7303 says (the parser lets
///   a byte order mark win); JSON is UTF-8 whatever it says.
/// - Timeouts: connecting, the response's head, and each wait for more of the body
///   are bounded by `timeout`; ``FeedRun`` bounds the whole fetch too.
struct FeedFetcher: Sendable {
    let client: HTTPClient
    let timeout: TimeAmount
    let userAgent: String
    /// The most bytes of one response body read, as sent (compressed bodies before
    /// decompression): past it the source fails with 65, nothing of it stored.
    var maxBodyBytes = Self.defaultMaxBodyBytes
    static let defaultMaxBodyBytes = 256 << 20
    static let maxRedirects = 10
    static let accept = "application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml;q=0.9, "
        + "application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5"

    /// What to ask for: the URL (the stored one, moved by earlier permanent
    /// redirects) and the stored validators.
    struct Plan: Sendable {
        var url: URL
        var etag: String?
        var lastModified: String?
    }

    /// An HTTP client for feeds: redirects left to the fetcher, gzip decoded, the
    /// timeouts set.
    static func makeClient(timeout: TimeAmount) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: timeout, read: timeout),
            decompression: .disabled)
        configuration.connectionPool = .init(idleTimeout: .seconds(5))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Fetches `plan` into `job`, ending it however the fetch ends.
    func fetch(_ plan: Plan, into job: FeedJob) async {
        let started = Date()
        var current = plan.url
        var stored = plan.url
        var permanentSoFar = true
        var status: Int?
        var discovered = false
        do {
            try Self.check(plan.url, of: job.source)
            for _ in 0...Self.maxRedirects {
                var request = HTTPClientRequest(url: current.absoluteString)
                request.headers.add(name: "User-Agent", value: userAgent)
                request.headers.add(name: "Accept", value: Self.accept)
                request.headers.add(name: "Accept-Encoding", value: "gzip")
                if let etag = plan.etag { request.headers.add(name: "If-None-Match", value: etag) }
                if let lastModified = plan.lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
                let response = try await client.execute(request, deadline: .now() + timeout)
                status = Int(response.status.code)
                switch response.status.code {
                case 301, 302, 303, 307, 308:
                    try await Self.drain(response.body)
                    guard let location = response.headers.first(name: "Location"),
                          let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                        throw FeedFailure("HTTP \(response.status.code) redirect without a usable Location", status: status,
                                          exitCode: IngestError.Kind.data.exitCode)
                    }
                    try Self.check(next, of: job.source, redirect: response.status.code)
                    let permanent = response.status.code == 301 || response.status.code == 308
                    permanentSoFar = permanentSoFar && permanent
                    if permanentSoFar { stored = next }
                    current = next
                    continue
                case 304:
                    try await Self.drain(response.body)
                    guard plan.etag != nil || plan.lastModified != nil else {
                        // Nothing was stored to be current: the server (or a cache on
                        // the way) is wrong, as with a 5xx; the next run asks again.
                        throw FeedFailure("HTTP 304 Not Modified, but the request sent no validators (no stored ETag or "
                                          + "Last-Modified): no feed to keep", status: status,
                                          exitCode: IngestError.Kind.temporary.exitCode)
                    }
                    // The 304's caching headers say when to ask again.
                    job.begin(Self.fetch(stored, status: status, response.headers, date: started))
                    job.end(.notModified)
                    return
                case 200..<300 where !discovered && Self.isHTML(response.headers.first(name: "Content-Type")):
                    // A page, not a feed: read the feed it advertises, and keep its
                    // address as a permanent redirect's, so the next run asks it directly.
                    let feed = try await Self.discover(in: response.body, of: current, status: status)
                    guard let next = URL(string: feed.url)?.absoluteURL else {
                        throw FeedFailure("the page advertises a feed at an address that is no URL: \(feed.url)", status: status,
                                          exitCode: IngestError.Kind.data.exitCode)
                    }
                    try Self.check(next, of: job.source)
                    job.discovered = feed
                    discovered = true
                    if permanentSoFar { stored = next }
                    current = next
                    continue
                case 200..<300:
                    let fetch = Self.fetch(stored, status: status, response.headers, date: started)
                    try await read(response, from: current, fetch: fetch, into: job)
                    return
                default:
                    try await Self.drain(response.body)
                    var failure = FeedFailure.http(response.status)
                    failure.retryAfter = FeedFetch.retryDate(response.headers.first(name: "Retry-After"), at: Date())
                    throw failure
                }
            }
            throw FeedFailure("more than \(Self.maxRedirects) redirects", status: status, exitCode: IngestError.Kind.data.exitCode)
        } catch {
            job.end(.failed(.fetching(error, of: job.source, timeout: timeout, status: status)))
        }
    }

    /// What a response read at `date` says for the archive: its validators and
    /// caching headers, their ages counted from `date` — the fetch's time as stored,
    /// so that `max-age=600` stores a next fetch 600 s after it however slow the
    /// response was.
    private static func fetch(_ url: URL, status: Int?, _ headers: HTTPHeaders, date: Date) -> FeedFetch {
        FeedFetch(url: url.absoluteString, status: status, etag: headers.first(name: "ETag"),
                  lastModified: headers.first(name: "Last-Modified"), date: date,
                  expires: FeedFetch.expiry(cacheControl: headers["Cache-Control"].joined(separator: ","),
                                            expires: headers.first(name: "Expires"), at: date),
                  retryAfter: FeedFetch.retryDate(headers.first(name: "Retry-After"), at: date))
    }

    /// Streams the body to a thread that reads it as standard input is read
    /// (``FeedJob/readOnce(_:with:decode:_:)``: strictly, recovering from a copy on
    /// disk when the XML is not well-formed, compressed bodies decompressed), the
    /// items into the job; returns once that thread is done.
    private func read(_ response: HTTPClientResponse, from url: URL, fetch: FeedFetch, into job: FeedJob) async throws {
        let encoding = response.headers.first(name: "Content-Encoding")?.trimmingCharacters(in: .whitespaces).lowercased()
        if let encoding, !["", "identity", "gzip", "x-gzip"].contains(encoding) {
            try await Self.drain(response.body)
            throw FeedFailure("the body is encoded as \"\(encoding)\", which ingest does not read (it asks for gzip)",
                              status: fetch.status, exitCode: IngestError.Kind.data.exitCode)
        }
        job.begin(fetch)
        let options = FeedReader.Options(baseURL: url, charset: Self.charset(response.headers.first(name: "Content-Type")),
                                         onWarning: job.onWarning)
        let body = BodyPipe(displayName: url.absoluteString)
        let parsed = ThreadEnd()
        let (source, timeout) = (job.source, self.timeout)
        let thread = Thread {
            Self.parse(body, options: options, into: job, failing: { .fetching($0, of: source, timeout: timeout, status: fetch.status) })
            parsed.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        do {
            var received = 0
            for try await buffer in response.body {
                received += buffer.readableBytes
                guard received <= maxBodyBytes else {
                    throw FeedFailure("the body is larger than --max-size \(ByteCount(maxBodyBytes)) allows; nothing of it was stored",
                                      status: fetch.status, exitCode: IngestError.Kind.data.exitCode)
                }
                guard await body.put(buffer) else { break }
            }
            body.finish(nil)
        } catch {
            body.finish(error)
        }
        await parsed.wait()
    }

    /// Reads the feed from `body` on the calling thread, ending `job` with it.
    private static func parse(_ body: BodyPipe, options: FeedReader.Options, into job: FeedJob,
                              failing: (any Error) -> FeedFailure) {
        struct Stopped: Error {}
        defer { body.close() }
        do {
            let feed = try FeedJob.readOnce(body, with: FeedReader(options: options),
                                            decode: { try ExpansionBound($0.decompressingIfCompressed(inputBufferSize: ExpansionBound.inputBufferSize)) }) { item, feed in
                guard job.deliver(item, feed) else { throw Stopped() }
            }
            job.end(.finished(feed))
        } catch is Stopped {
            return
        } catch {
            job.end(.failed(failing(error)))
        }
    }

    /// Throws a failure of `source` (65) when `url` is not one to give the client:
    /// `invalid URL: port 99999 is out of range 1-65535` — naming the URL when it is
    /// not the source, as after `HTTP 301 redirect to an` when a redirect named it.
    private static func check(_ url: URL, of source: FeedSource, redirect: UInt? = nil) throws {
        do {
            try FetchableURL.check(url)
        } catch {
            let invalid = source.isNamed(error.url) ? "invalid URL: \(error.problem)" : "\(error)"
            let message = redirect.map { "HTTP \($0) redirect to an \(invalid)" } ?? invalid
            throw FeedFailure(message, status: redirect.map { Int($0) }, exitCode: IngestError.Kind.data.exitCode)
        }
    }

    /// The `charset` parameter of a `Content-Type`, unquoted; `nil` without one.
    static func charset(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Reads and drops a body that is not a feed (a redirect's, an error page), so
    /// the connection can be used again; at most 64 KiB.
    /// Whether a `Content-Type` says HTML.
    static func isHTML(_ contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return type == "text/html" || type == "application/xhtml+xml"
    }

    /// The pages read for their feed links are at most this long.
    static let pageLimit = 4 << 20

    /// The first feed the page in `body` advertises (``IngestFeeds/FeedDiscovery``),
    /// with how many it advertises; reads at most ``pageLimit`` bytes of it.
    private static func discover(in body: HTTPClientResponse.Body, of page: URL, status: Int?) async throws -> DiscoveredFeed {
        var bytes: [UInt8] = []
        for try await buffer in body {
            bytes += buffer.readableBytesView.prefix(pageLimit - bytes.count)
            if bytes.count >= pageLimit { break }
        }
        let feeds = FeedDiscovery.feeds(inHTML: String(decoding: bytes, as: UTF8.self), pageURL: page.absoluteString)
        guard let first = feeds.first else {
            throw FeedFailure("an HTML page that advertises no feed (no <link rel=\"alternate\" type=\"application/rss+xml\"> "
                              + "or Atom or JSON Feed link): name the feed's own URL", status: status,
                              exitCode: IngestError.Kind.data.exitCode)
        }
        return first
    }

    private static func drain(_ body: HTTPClientResponse.Body) async throws {
        var total = 0
        for try await buffer in body {
            total += buffer.readableBytes
            if total > 64 << 10 { return }
        }
    }
}

/// An HTTP body handed from the task that receives it to the thread that parses
/// it, as a ``IngestCore/ByteSource``: the task waits while a mebibyte waits to be
/// read, the thread while nothing does.
private final class BodyPipe: ByteSource, @unchecked Sendable {
    static let capacity = 1 << 20
    let displayName: String
    private let condition = NSCondition()
    // Guarded by `condition`:
    /// Copies, not the client's buffers: those may be slices of a larger one, which
    /// each would keep whole.
    private var chunks: [[UInt8]] = []
    /// The next chunk, and where in it the next read starts.
    private var head = 0
    private var offset = 0
    private var queued = 0
    private var ended = false
    private var failure: (any Error)?
    private var closed = false
    private var roomWaiter: CheckedContinuation<Bool, Never>?

    init(displayName: String) {
        self.displayName = displayName
    }

    /// Adds the next piece of the body; waits while the pipe is full. `false` once
    /// the reader is done with the body (it failed, or the job is over).
    func put(_ buffer: ByteBuffer) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            condition.lock()
            guard !closed else {
                condition.unlock()
                return continuation.resume(returning: false)
            }
            chunks.append(Array(buffer.readableBytesView))
            queued += buffer.readableBytes
            condition.broadcast()
            if queued < Self.capacity {
                condition.unlock()
                continuation.resume(returning: true)
            } else {
                roomWaiter = continuation
                condition.unlock()
            }
        }
    }

    /// The body ended, with `error` when it did not end well: the reader gets the
    /// bytes before, then the end or the error.
    func finish(_ error: (any Error)?) {
        condition.lock()
        ended = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The reader reads no more: what waits is dropped, the task told to stop.
    func close() {
        condition.lock()
        closed = true
        chunks.removeAll()
        head = 0
        offset = 0
        queued = 0
        let waiter = roomWaiter
        roomWaiter = nil
        condition.unlock()
        waiter?.resume(returning: false)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        condition.lock()
        while head == chunks.count && !ended { condition.wait() }
        guard head < chunks.count else {
            condition.unlock()
            if let failure { throw failure }
            return 0
        }
        let count = min(buffer.count, chunks[head].count - offset)
        chunks[head].withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        if offset == chunks[head].count {
            // Freed now, not when the array is next compacted.
            chunks[head] = []
            head += 1
            offset = 0
        }
        if head == chunks.count || head >= 1024 {
            chunks.removeFirst(head)
            head = 0
        }
        queued -= count
        var waiter: CheckedContinuation<Bool, Never>?
        if queued < Self.capacity {
            waiter = roomWaiter
            roomWaiter = nil
        }
        condition.unlock()
        waiter?.resume(returning: true)
        return count
    }
}

/// A body's decompressed bytes, refused (65) once they are more than
/// ``maxRatio`` times the compressed bytes read, past the first ``allowance``: a
/// compression bomb, not a feed (XML text compresses five to twenty times).
private final class ExpansionBound: ByteSource {
    static let maxRatio = 100
    static let allowance = 16 << 20
    /// Compressed bytes read at a time: the most the count runs ahead of decoding.
    static let inputBufferSize = 4096
    private let source: any ByteSource
    private var produced = 0
    var displayName: String { source.displayName }

    init(_ source: any ByteSource) {
        self.source = source
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try source.read(into: buffer)
        produced += count
        if let compressed = source as? DecompressingSource, produced > Self.allowance,
           produced / Self.maxRatio > compressed.compressedBytesRead {
            throw IngestError(.data, "the \(compressed.format) body expands to more than \(Self.maxRatio) times its size "
                              + "(\(compressed.compressedBytesRead) bytes gave \(produced)): refused as a compression bomb",
                              file: displayName)
        }
        return count
    }
}

/// A thread's end, awaited by a task.
private final class ThreadEnd: @unchecked Sendable {
    private let lock = NSLock()
    private var ended = false
    private var waiter: CheckedContinuation<Void, Never>?

    func signal() {
        lock.lock()
        ended = true
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if ended {
                lock.unlock()
                continuation.resume()
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}
