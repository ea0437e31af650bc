import AsyncHTTPClient
import Foundation
import IngestKit
import NIOCore

/// `ingest feed --all`: each URL whose answer is an HTML page stands for every feed
/// the page advertises, each then a source of its own, archived under its own
/// address. The pages are read before the run (a source that is no page, or fails,
/// stays as it is: the run reads it and reports what it gives).
enum AdvertisedFeeds {
    /// `sources` with every page among the URLs replaced by the feeds it advertises,
    /// in order; says what each page gave on `console`.
    static func expand(_ sources: [FeedSource], timeout: TimeAmount, userAgent: String, console: Console) -> [FeedSource] {
        let pages = sources.compactMap { source -> URL? in
            if case .url(let url) = source { url } else { nil }
        }
        guard !pages.isEmpty else { return sources }
        let found = Found()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await found.fill(pages, timeout: timeout, userAgent: userAgent)
            done.signal()
        }
        done.wait()
        var expanded: [FeedSource] = []
        for source in sources {
            guard case .url(let url) = source, let feeds = found.feeds[url] else {
                expanded.append(source)
                continue
            }
            console.notice("\(url.absoluteString): an HTML page advertising \(feeds.count) feed\(feeds.count == 1 ? "" : "s"): "
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

        func fill(_ pages: [URL], timeout: TimeAmount, userAgent: String) async {
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .follow(max: FeedFetcher.maxRedirects, allowCycles: false),
                timeout: .init(connect: timeout, read: timeout), decompression: .enabled(limit: .ratio(100)))
            configuration.connectionPool = .init(idleTimeout: .seconds(5))
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            for page in pages {
                // A page that advertises none stays a source: the run says so, as without --all.
                if let feeds = await Self.advertised(by: page, client: client, timeout: timeout, userAgent: userAgent),
                   !feeds.isEmpty {
                    self.feeds[page] = feeds
                }
            }
            try? await client.shutdown()
        }

        /// The feeds the page at `url` advertises; `nil` when it is no HTML page or
        /// cannot be read.
        private static func advertised(by url: URL, client: HTTPClient, timeout: TimeAmount,
                                       userAgent: String) async -> [DiscoveredFeed]? {
            guard (try? FetchableURL.check(url)) != nil else { return nil }
            var request = HTTPClientRequest(url: url.absoluteString)
            request.headers.add(name: "User-Agent", value: userAgent)
            request.headers.add(name: "Accept", value: "text/html, application/xhtml+xml;q=0.9, */*;q=0.5")
            do {
                let response = try await client.execute(request, deadline: .now() + .nanoseconds(timeout.nanoseconds * 10))
                guard (200..<300).contains(response.status.code),
                      FeedFetcher.isHTML(response.headers.first(name: "Content-Type")) else { return nil }
                let body = try await response.body.collect(upTo: FeedFetcher.pageLimit)
                let html = String(decoding: body.readableBytesView, as: UTF8.self)
                return FeedDiscovery.feeds(inHTML: html, pageURL: url.absoluteString)
            } catch {
                return nil
            }
        }
    }
}
