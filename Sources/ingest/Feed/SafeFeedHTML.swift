import IngestKit

/// `--html safe`: a read's items and feed with their descriptions and content
/// sanitized (``SafeHTML``). The feed comes with every item and its description
/// seldom changes, so the last one sanitized is kept rather than done again.
struct SafeFeedHTML {
    private var lastDescription: (given: FeedText, safe: FeedText?)?

    /// `item` with its HTML sanitized.
    func item(_ item: FeedItem) -> FeedItem {
        var item = item
        item.sanitizeHTML()
        return item
    }

    /// `feed` (and any items it holds) with its HTML sanitized.
    mutating func feed(_ feed: Feed) -> Feed {
        var feed = feed
        let given = feed.description
        if let given, let last = lastDescription, last.given == given {
            feed.description = nil
            feed.sanitizeHTML()
            feed.description = last.safe
        } else {
            feed.sanitizeHTML()
            lastDescription = given.map { ($0, feed.description) }
        }
        return feed
    }
}
