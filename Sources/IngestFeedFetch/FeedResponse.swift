import Foundation
import IngestFeedArchive
import IngestFeeds

/// The answer a fetch ended with: where it came from, its validators and its
/// caching headers, as the server sent them.
public struct FeedResponse: Sendable, Hashable {
    /// The address asked first.
    public var requestedURL: URL
    /// The address the answer came from, after every redirect.
    public var url: URL
    /// Where to ask next time: the requested address moved along permanent
    /// redirects only, as long as every redirect before was permanent too.
    public var permanentURL: URL
    /// The HTTP status: 200 for a feed, 304 when not modified.
    public var status: Int
    /// The `ETag` header, to send back as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` header, to send back as `If-Modified-Since`.
    public var lastModified: String?
    /// The `Cache-Control` headers, joined with commas.
    public var cacheControl: String?
    /// The `Expires` header.
    public var expires: String?
    /// The `Retry-After` header.
    public var retryAfter: String?
    /// The `Content-Type` header.
    public var contentType: String?
    /// When the fetch began: the time the caching headers' ages count from.
    public var date: Date
    /// The feed an HTML page at the address advertised, which was read instead.
    public var discoveredFeed: DiscoveredFeed?

    /// A response; see the properties.
    public init(
        requestedURL: URL, url: URL, permanentURL: URL, status: Int, etag: String? = nil,
        lastModified: String? = nil, cacheControl: String? = nil, expires: String? = nil,
        retryAfter: String? = nil, contentType: String? = nil, date: Date = Date(),
        discoveredFeed: DiscoveredFeed? = nil
    ) {
        self.requestedURL = requestedURL
        self.url = url
        self.permanentURL = permanentURL
        self.status = status
        self.etag = etag
        self.lastModified = lastModified
        self.cacheControl = cacheControl
        self.expires = expires
        self.retryAfter = retryAfter
        self.contentType = contentType
        self.date = date
        self.discoveredFeed = discoveredFeed
    }

    /// Where redirects took the fetch; `nil` when the address answered itself.
    public var move: FeedMove? {
        guard url != requestedURL else { return nil }
        return FeedMove(url: url, isPermanent: permanentURL == url)
    }

    /// The request to make next time: ``permanentURL`` and these validators.
    public var nextRequest: FeedRequest {
        FeedRequest(url: permanentURL, etag: etag, lastModified: lastModified)
    }

    /// What the archive keeps of this answer (``/IngestFeedArchive/FeedFetch``):
    /// the address to ask next time, the validators, and the caching headers'
    /// dates counted from ``date``, so that `max-age=600` means 600 s after the
    /// fetch began however slow the body was.
    public var archiveRecord: FeedFetch {
        FeedFetch(
            url: permanentURL.absoluteString, status: status, etag: etag, lastModified: lastModified, date: date,
            expires: FeedFetch.expiry(cacheControl: cacheControl, expires: expires, at: date),
            retryAfter: FeedFetch.retryDate(retryAfter, at: date))
    }
}
