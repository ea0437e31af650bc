import Foundation
import IngestCore
import IngestFeedArchive
import IngestFeeds

/// Why a fetch gave no feed: what kind of failure, the address, a message and,
/// when the server answered, its status. ``isTemporary`` says whether asking
/// again later may help.
public struct FeedFetchError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: Sendable, Hashable {
        /// The address is no URL an HTTP client may be given (a port past 65535,
        /// no host, another scheme), the first or a redirect's.
        case invalidURL
        /// A redirect without a usable `Location`, or more redirects than allowed.
        case badRedirect
        /// The server answered with a status that carries no feed (404, 503…):
        /// see ``FeedFetchError/status``.
        case httpStatus
        /// `304 Not Modified` to a request that sent no validator: nothing was
        /// stored to be current, so the server (or a cache on the way) is wrong.
        case notModifiedWithoutValidators
        /// An HTML page that advertises no feed.
        case noAdvertisedFeed
        /// A `Content-Encoding` other than gzip or none.
        case unsupportedEncoding
        /// The body is longer than ``FeedFetcher/Configuration/maxBodyBytes``.
        case tooLarge
        /// The connection failed or was closed before the end of the response.
        case network
        /// A timeout: connecting, the response's head, a wait for more of the
        /// body, or the whole fetch.
        case timedOut
        /// The body is no feed the reader could read: see ``FeedFetchError/ingestError``.
        case unreadable
        /// The task fetching was cancelled.
        case cancelled
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// The address the failure is about: the one asked, or a redirect's.
    public var url: URL
    /// What went wrong, in words, without the address.
    public var message: String
    /// The HTTP status of the response, if there was one.
    public var status: Int?
    /// The response's `Retry-After` header, when it sent one.
    public var retryAfterHeader: String?
    /// The library's error under an ``Kind/unreadable`` failure (the parser's, the
    /// decompressor's), with its place in the body.
    public var ingestError: IngestError?
    /// The feed an HTML page at the address advertised, when the failure came
    /// while fetching it.
    public var discoveredFeed: DiscoveredFeed?

    /// A failure; see the properties.
    public init(
        _ kind: Kind, url: URL, message: String, status: Int? = nil, retryAfterHeader: String? = nil,
        ingestError: IngestError? = nil
    ) {
        self.kind = kind
        self.url = url
        self.message = message
        self.status = status
        self.retryAfterHeader = retryAfterHeader
        self.ingestError = ingestError
    }

    /// Whether asking again later may help: network failures and timeouts, 5xx,
    /// 408 and 429, a 304 without validators, a cancelled fetch.
    public var isTemporary: Bool {
        switch kind {
        case .network, .timedOut, .notModifiedWithoutValidators, .cancelled: true
        case .httpStatus: status.map { $0 >= 500 || $0 == 408 || $0 == 429 } ?? true
        case .unreadable: ingestError?.kind == .temporary
        case .invalidURL, .badRedirect, .noAdvertisedFeed, .unsupportedEncoding, .tooLarge: false
        }
    }

    /// When the server asked to be asked again, from its `Retry-After`, counted
    /// from `date`.
    public func retryAfter(at date: Date = Date()) -> Date? {
        FeedFetch.retryDate(retryAfterHeader, at: date)
    }

    /// `https://example.com/feed: HTTP 404 Not Found`.
    public var description: String { "\(url.absoluteString): \(message)" }
}
