import AsyncHTTPClient
import Foundation
import IngestFeeds
import NIOCore

extension FeedFetcher {
    /// Feed autodiscovery over HTTP: the feeds the HTML page at `url` advertises
    /// (`<link rel="alternate" type="application/rss+xml" href="…">` and Atom's
    /// and JSON Feed's), in the page's order, resolved against its base.
    ///
    /// Redirects are followed; the page is asked for with `Accept-Encoding: gzip` and
    /// decompressed when compressed, and at most 4 MiB of it is read.
    ///
    /// - Returns: the feeds, or `nil` when the address answers with no HTML page.
    /// - Throws: ``FeedFetchError`` when the page cannot be fetched.
    public func advertisedFeeds(at url: URL) async throws(FeedFetchError) -> [DiscoveredFeed]? {
        var current = url
        var status: Int?
        do {
            for _ in 0...configuration.maxRedirects {
                try FetchableURL.check(current)
                var request = HTTPClientRequest(url: current.absoluteString)
                request.headers.add(name: "User-Agent", value: configuration.userAgent)
                request.headers.add(name: "Accept", value: "text/html, application/xhtml+xml;q=0.9, */*;q=0.5")
                request.headers.add(name: "Accept-Encoding", value: "gzip")
                let response = try await client.execute(
                    request, deadline: .now() + Self.timeAmount(configuration.headTimeout))
                status = Int(response.status.code)
                switch response.status.code {
                case 301, 302, 303, 307, 308:
                    current = try await Self.redirectTarget(of: response, from: current)
                case 200..<300:
                    guard ContentType.isHTML(response.headers.first(name: "Content-Type")) else {
                        try await Self.drain(response.body)
                        return nil
                    }
                    return try await Self.advertised(in: response.body, of: current)
                default:
                    throw try await Self.statusFailure(response, url: current)
                }
            }
            throw tooManyRedirects(url: current, status: status)
        } catch let error as FetchableURL.Invalid {
            throw FeedFetchError(.invalidURL, url: current, message: "\(error)")
        } catch {
            throw classify(error, url: current, status: status)
        }
    }
}
