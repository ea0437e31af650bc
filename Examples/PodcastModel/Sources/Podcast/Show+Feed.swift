import Foundation
import IngestFeedFetch
import IngestFeeds

extension Show {
    /// The show a podcast feed describes.
    public init(_ feed: Feed) {
        let iTunes = feed.iTunes
        self.init(
            title: feed.title?.plainText ?? "",
            author: iTunes?.author ?? feed.author?.name,
            summary: SafeHTML.plainText(iTunes?.summary ?? feed.description?.value ?? ""),
            artwork: (iTunes?.image ?? feed.image?.url).flatMap(URL.init(string:)),
            categories: iTunes?.categories.compactMap(\.text) ?? [],
            isExplicit: iTunes?.isExplicit ?? false,
            kind: iTunes?.type?.rawValue,
            episodes: feed.items.map(Episode.init).sorted {
                ($0.published ?? .distantPast) > ($1.published ?? .distantPast)
            })
    }

    /// The show in the feed file at `path`.
    public init(contentsOf path: String) throws {
        var items: [FeedItem] = []
        var feed = try FeedReader().read(contentsOf: URL(fileURLWithPath: path)) { item, _ in items.append(item) }
        feed.items = items
        self.init(feed)
    }

    /// The show whose feed is at `url`, fetched with `fetcher`.
    public static func fetch(_ url: URL, with fetcher: FeedFetcher) async throws -> Show {
        // A request without validators is never answered "not modified".
        guard case .feed(let feed, _) = try await fetcher.fetch(FeedRequest(url: url)) else {
            preconditionFailure("304 to an unconditional request")
        }
        return Show(feed)
    }
}

extension Episode {
    /// The episode an item describes.
    public init(_ item: FeedItem) {
        let iTunes = item.iTunes
        let enclosure = item.enclosures.first
        self.init(
            id: item.guid ?? item.link ?? item.title?.plainText ?? "",
            title: item.title?.plainText ?? "",
            published: item.publishedDate,
            summary: SafeHTML.plainText((item.description ?? item.content)?.value ?? ""),
            audio: enclosure?.url.flatMap(URL.init(string:)).map {
                Audio(url: $0, length: enclosure?.length.flatMap { Int($0) }, type: enclosure?.type)
            },
            durationSeconds: iTunes?.durationSeconds,
            season: iTunes?.season ?? item.podcast?.season?.number,
            number: iTunes?.episode ?? item.podcast?.episode?.number.map { Int($0) },
            kind: iTunes?.episodeType?.rawValue ?? "full",
            isExplicit: iTunes?.isExplicit ?? false,
            chapters: item.chapters.map { Chapter(start: $0.start, title: $0.title) },
            chaptersURL: item.podcast?.chapters.flatMap { URL(string: $0.url) },
            transcripts: item.podcast?.transcripts.compactMap { transcript in
                URL(string: transcript.url).map { Transcript(url: $0, type: transcript.type) }
            } ?? [])
    }
}
