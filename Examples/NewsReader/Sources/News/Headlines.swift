import Foundation
import IngestFeedFetch
import IngestFeeds

/// An item as the reader shows it.
public struct Headline: Sendable, Hashable {
    public var title: String
    /// The description (or content) as plain text, at most 200 characters.
    public var summary: String
    public var date: Date?
}

/// The `count` newest items of the feed at `url`, newest first.
public func newest(_ count: Int, at url: URL, with fetcher: FeedFetcher) async throws -> [Headline] {
    let items = try await fetcher.fetch(FeedRequest(url: url)).feed?.items ?? []
    let latest = items.sorted { ($0.publishedDate ?? .distantPast) > ($1.publishedDate ?? .distantPast) }
    return latest.prefix(count).map { item in
        let html = (item.description ?? item.content)?.value ?? ""
        return Headline(
            title: item.title?.plainText ?? "(untitled)",
            summary: SafeHTML.plainText(html, limit: 200), date: item.publishedDate)
    }
}
