import Foundation
import IngestFeedFetch
import IngestKit

/// `ingest feed --all`: each URL whose answer is an HTML page stands for every feed
/// the page advertises, each then a source of its own, archived under its own
/// address. The pages are read before the run (a source that is no page, or fails,
/// stays as it is: the run reads it and reports what it gives).
enum AdvertisedFeeds {
    /// `sources` with every page among the URLs replaced by the feeds it advertises,
    /// in order; says what each page gave on `console`.
    static func expand(_ sources: [FeedSource], fetching: FeedFetcher.Configuration, console: Console) -> [FeedSource] {
        let pages = sources.compactMap { source -> URL? in
            if case .url(let url) = source { url } else { nil }
        }
        guard !pages.isEmpty else { return sources }
        let found = Found()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await found.fill(pages, fetching: fetching)
            done.signal()
        }
        done.wait()
        var expanded: [FeedSource] = []
        for source in sources {
            guard case .url(let url) = source, let feeds = found.feeds[url] else {
                expanded.append(source)
                continue
            }
            console.notice(
                "\(url.absoluteString): an HTML page advertising \(feeds.count) feed\(feeds.count == 1 ? "" : "s"): "
                    + feeds.map(\.url).joined(separator: ", "))
            for feed in feeds {
                guard let address = URL(string: feed.url), (try? FetchableURL.check(address)) != nil else {
                    console.warning("\(url.absoluteString): advertises \(feed.url), which is no URL to fetch; left out")
                    continue
                }
                expanded.append(.url(address))
            }
        }
        return expanded
    }

    /// The pages' feeds, by page address; a URL that answered with no page is not in it.
    private final class Found: @unchecked Sendable {
        // Safety: written by the one task `fill` runs on, read after it has
        // signalled that it is done.
        var feeds: [URL: [DiscoveredFeed]] = [:]

        func fill(_ pages: [URL], fetching: FeedFetcher.Configuration) async {
            // The whole read of a page is bounded as a feed's is.
            var configuration = fetching
            configuration.headTimeout = fetching.maxTime
            let fetcher = FeedFetcher(configuration: configuration)
            for page in pages {
                // A page that advertises none, or cannot be read, stays a source:
                // the run says so, as without --all.
                if let feeds = try? await fetcher.advertisedFeeds(at: page), !feeds.isEmpty {
                    self.feeds[page] = feeds
                }
            }
            try? await fetcher.shutdown()
        }
    }
}
