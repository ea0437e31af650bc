import AsyncHTTPClient
import Foundation
import IngestKit
import NIOCore
import NIOHTTP1

/// Fetches feeds over HTTP with AsyncHTTPClient and streams each body into a
/// ``FeedPushParser``, handing the items to the source's ``FeedJob`` as they end.
///
/// - Conditional GET: `If-None-Match` and `If-Modified-Since` from what the archive
///   stored; a 304 ends the job as not modified.
/// - Redirects are followed here, not by the client, to tell them apart: the
///   address the feed is stored under moves along 301 and 308 redirects only (as
///   long as every redirect before was permanent too); at most ``maxRedirects``.
/// - Every address is checked (``FetchableURL``) before the client is given it,
///   the first and each `Location`: a bad one fails this source alone (65).
/// - `Accept-Encoding: gzip, deflate`, decoded by the client as the body streams.
/// - The `Content-Type` charset applies to XML as RFC 7303 says (the parser lets
///   a byte order mark win); JSON is UTF-8 whatever it says.
/// - Timeouts: connecting, the response's head, and each wait for more of the body
///   are bounded by `timeout`; ``FeedRun`` bounds the whole fetch too.
struct FeedFetcher: Sendable {
    let client: HTTPClient
    let timeout: TimeAmount
    let userAgent: String
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
            decompression: .enabled(limit: .ratio(1_000)))
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
        do {
            try Self.check(plan.url, of: job.source)
            for _ in 0...Self.maxRedirects {
                var request = HTTPClientRequest(url: current.absoluteString)
                request.headers.add(name: "User-Agent", value: userAgent)
                request.headers.add(name: "Accept", value: Self.accept)
                request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
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
                    job.end(.notModified)
                    return
                case 200..<300:
                    let fetch = FeedFetch(url: stored.absoluteString, status: status,
                                          etag: response.headers.first(name: "ETag"),
                                          lastModified: response.headers.first(name: "Last-Modified"), date: started)
                    try await read(response, from: current, fetch: fetch, into: job)
                    return
                default:
                    try await Self.drain(response.body)
                    throw FeedFailure.http(response.status)
                }
            }
            throw FeedFailure("more than \(Self.maxRedirects) redirects", status: status, exitCode: IngestError.Kind.data.exitCode)
        } catch {
            job.end(.failed(.fetching(error, of: job.source, timeout: timeout, status: status)))
        }
    }

    /// Streams the body into the feed parser, the items into the job.
    private func read(_ response: HTTPClientResponse, from url: URL, fetch: FeedFetch, into job: FeedJob) async throws {
        job.begin(fetch)
        let items = ItemBuffer()
        let options = FeedReader.Options(baseURL: url, charset: Self.charset(response.headers.first(name: "Content-Type")),
                                         onWarning: job.onWarning)
        let parser = FeedPushParser(options: options, displayName: url.absoluteString) { item, feed in
            items.append(item, feed)
        }
        for try await buffer in response.body {
            try buffer.withUnsafeReadableBytes { try parser.feed($0) }
            if !items.isEmpty, await !job.send(items.take()) { return }
        }
        let feed = try parser.finish()
        if !items.isEmpty, await !job.send(items.take()) { return }
        job.end(.finished(feed))
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
    private static func drain(_ body: HTTPClientResponse.Body) async throws {
        var total = 0
        for try await buffer in body {
            total += buffer.readableBytes
            if total > 64 << 10 { return }
        }
    }
}

/// Items the parser handed over during one chunk, before they go to the job.
private final class ItemBuffer: @unchecked Sendable {
    private var items: [(FeedItem, Feed)] = []
    var isEmpty: Bool { items.isEmpty }
    func append(_ item: FeedItem, _ feed: Feed) { items.append((item, feed)) }
    func take() -> [(FeedItem, Feed)] {
        defer { items.removeAll(keepingCapacity: true) }
        return items
    }
}
