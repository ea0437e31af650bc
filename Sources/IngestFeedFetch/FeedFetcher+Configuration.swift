import IngestCore
import IngestParsers

extension FeedFetcher {
    /// How a ``FeedFetcher`` fetches: who it says it is, how long it waits, how
    /// much it reads, how many fetches one host gets at a time.
    public struct Configuration: Sendable {
        /// The `User-Agent` sent with every request.
        public var userAgent = FeedFetcher.defaultUserAgent
        /// The longest wait for a connection.
        public var connectTimeout: Duration = .seconds(30)
        /// The longest wait for the response's head, from the request.
        public var headTimeout: Duration = .seconds(30)
        /// The longest wait for each next piece of the body.
        public var readTimeout: Duration = .seconds(30)
        /// The longest a whole fetch may take, redirects and body included: a body
        /// that trickles on ends here.
        public var maxTime: Duration = .seconds(300)
        /// The most bytes of one response body read, as sent (a compressed body
        /// before decompression): past it the fetch fails with ``FeedFetchError/Kind/tooLarge``.
        public var maxBodyBytes = FeedFetcher.defaultMaxBodyBytes
        /// The most fetches from one host at the same time; the others wait.
        public var maxFetchesPerHost = 2
        /// The most redirects one fetch follows.
        public var maxRedirects = 10
        /// Whether an HTML page is read for the first feed it advertises (and that
        /// feed fetched, as after a permanent redirect) rather than failing.
        public var readsAdvertisedFeed = true
        /// Hears what the feed's XML parser read past (an entity kept as written).
        public var onWarning: ParseWarningHandler?

        /// The defaults: 30 s for each wait, 300 s in all, 256 MiB of body, two
        /// fetches a host.
        public init() {}

        /// Every wait (connecting, the head, each piece of the body) bounded by
        /// `timeout`, and the whole fetch by ten times it.
        public init(timeout: Duration) {
            connectTimeout = timeout
            headTimeout = timeout
            readTimeout = timeout
            maxTime = timeout * 10
        }
    }

    /// `IngestFeedFetch (the ingest feed library)`: the project, named.
    public static let defaultUserAgent = "IngestFeedFetch (the ingest feed library)"
    /// 256 MiB: far more than any feed, little enough that an endless body ends.
    public static let defaultMaxBodyBytes = 256 << 20
    /// What feed fetches accept, feeds first.
    static let accept =
        "application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml;q=0.9, "
        + "application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5"
    /// The pages read for their feed links are at most this long.
    static let pageLimit = 4 << 20
}
