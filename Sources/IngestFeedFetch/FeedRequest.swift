import Foundation

/// What to ask a server for: the feed's address and what was stored from its last
/// fetch, so that an unchanged feed costs a `304 Not Modified` and no body.
///
/// Give the address the last fetch's ``FeedResponse/permanentURL`` named (the feed
/// moved there by permanent redirects) and that response's validators.
public struct FeedRequest: Sendable, Hashable {
    /// The address to ask: `http` or `https`.
    public var url: URL
    /// The `ETag` stored from the last fetch, sent as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` stored from the last fetch, sent as `If-Modified-Since`.
    public var lastModified: String?

    /// A request for `url`, conditional on the validators given.
    public init(url: URL, etag: String? = nil, lastModified: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether the request is conditional: it sends a validator.
    public var isConditional: Bool { etag != nil || lastModified != nil }
}
