// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import IngestFeedFetch
import IngestFeeds
import IngestTestSupport
import LoopbackHTTPServer
import Testing

/// "Reading news in 40 lines" (IngestFeedFetch.docc/ReadingNewsIn40Lines.md): its
/// snippets compile here as written, and do what the article says.
@Suite("The article on reading news in 40 lines")
struct ReadingNewsArticleTests {
    static let article = "Sources/IngestFeedFetch/IngestFeedFetch.docc/ReadingNewsIn40Lines.md"

    public struct Headline: Sendable, Hashable {
        public var title: String
        public var summary: String
        public var date: Date?
    }

    public func newest(_ count: Int, at url: URL, with fetcher: FeedFetcher) async throws -> [Headline] {
        let items = try await fetcher.fetch(FeedRequest(url: url)).feed?.items ?? []
        let latest = items.sorted { ($0.publishedDate ?? .distantPast) > ($1.publishedDate ?? .distantPast) }
        return latest.prefix(count).map { item in
            let html = (item.description ?? item.content)?.value ?? ""
            return Headline(title: item.title?.plainText ?? "(untitled)",
                            summary: SafeHTML.plainText(html, limit: 200), date: item.publishedDate)
        }
    }

    func printNews(_ arguments: [String]) async throws -> Bool {
        let fetcher = FeedFetcher()
        var failed = false
        for argument in arguments {
            do {
                print("== \(argument)")
                for headline in try await newest(5, at: URL(string: argument)!, with: fetcher) {
                    print("* \(headline.title)\n  \(headline.summary)")
                }
            } catch {
                failed = true
                print("NewsReader: \(error)")
            }
        }
        try await fetcher.shutdown()
        return !failed
    }

    @Test("Every Swift snippet of the article is in this file")
    func snippetsCompile() throws {
        #expect(try swiftCodeBlocks(inArticle: Self.article).count == 2)
        #expect(try codeBlocks(ofArticle: Self.article, missingFrom: #filePath) == [])
    }

    @Test("the sample podcast's newest items, newest first, in plain text; a 404 fails the run")
    func headlines() async throws {
        let server = try LoopbackHTTPServer()
        let sample = try Data(contentsOf: packageRoot.appendingPathComponent("Samples/podcast.rss"))
        server.route("/podcast.rss", LoopbackHTTPServer.Route(headers: [("Content-Type", "application/rss+xml")],
                                                              body: Array(sample)))
        let fetcher = FeedFetcher()
        let headlines: [Headline]
        do {
            headlines = try await newest(2, at: URL(string: server.url("/podcast.rss"))!, with: fetcher)
            try await fetcher.shutdown()
        } catch {
            try await fetcher.shutdown()
            throw error
        }
        #expect(headlines.map(\.title) == ["Episode 42: The Last Sailmaker in Polperro",
                                          "Episode 41: Harbour Masters & Their Ledgers"])
        #expect(headlines.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("<") })
        #expect(try await printNews([server.url("/podcast.rss")]))
        #expect(try await !printNews([server.url("/missing.rss")]))
    }
}
