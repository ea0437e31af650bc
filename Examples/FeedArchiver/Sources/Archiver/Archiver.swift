import Foundation
import IngestFeedArchive
import IngestFeedFetch
import IngestFeeds
import IngestSQLite

/// Updates a feed archive in a SQLite file: each feed asked with what the archive
/// stored of it (the address it moved to, its ETag and Last-Modified), so that an
/// unchanged feed costs a 304 and leaves every row as it was.
public struct Archiver: Sendable {
    /// How one feed's update ended.
    public enum Outcome: Sendable, Equatable {
        case archived(FeedArchiveCounts)
        case notModified
        /// What went wrong, and whether a later run may do better.
        case failed(String, temporary: Bool)
    }

    public let archive: FeedArchive
    public let fetcher: FeedFetcher

    /// An archive in the SQLite file at `path` (made if need be), fetched with `fetcher`.
    public init(databasePath path: String, fetcher: FeedFetcher) throws {
        archive = try FeedArchive { design in SQLiteOutput(path: path, mode: .append, design: design) }
        self.fetcher = fetcher
    }

    /// Fetches the feed at `url` conditionally and archives what it gives.
    public func update(_ url: URL) async -> Outcome {
        let source = url.absoluteString
        let stored = archive.storedFeed(for: source)
        let request = FeedRequest(
            url: stored?.url.flatMap(URL.init(string:)) ?? url,
            etag: stored?.etag, lastModified: stored?.lastModified)
        do {
            switch try await fetcher.fetch(request) {
            case .notModified(let response):
                try archive.recordNotModified(source, fetch: response.archiveRecord)
                return .notModified
            case .feed(let feed, let response):
                var bare = feed
                bare.items = []
                let counts = try archive.archive(.given(source), fetch: response.archiveRecord) { deliver in
                    for item in feed.items { try deliver(item, bare) }
                    return bare
                }
                return .archived(counts)
            }
        } catch let error as FeedFetchError {
            try? archive.recordFailure(
                source, fetch: FeedFetch(url: request.url.absoluteString, status: error.status),
                error: error.message)
            return .failed(error.message, temporary: error.isTemporary)
        } catch {
            return .failed("\(error)", temporary: false)
        }
    }

    /// The exit status for cron: 0 when every feed was archived or not modified,
    /// 75 (EX_TEMPFAIL) when the only failures may pass, 1 when one will not.
    public static func exitStatus(_ outcomes: [Outcome]) -> Int32 {
        var status: Int32 = 0
        for case .failed(_, let temporary) in outcomes {
            if !temporary { return 1 }
            status = 75
        }
        return status
    }
}
