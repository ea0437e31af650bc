import IngestFeeds

/// How a fetch ended well: the stored copy is current, or here is the feed.
public enum FeedFetchResult: Sendable, Hashable {
    /// `304 Not Modified`: what was stored is current.
    case notModified(FeedResponse)
    /// The feed, read to its end: with its items when no item handler was given,
    /// without them when one was (it had each as it was read).
    case feed(Feed, FeedResponse)

    /// The answer, whichever it was.
    public var response: FeedResponse {
        switch self {
        case .notModified(let response), .feed(_, let response): response
        }
    }

    /// The feed, unless not modified.
    public var feed: Feed? {
        if case .feed(let feed, _) = self { feed } else { nil }
    }
}
