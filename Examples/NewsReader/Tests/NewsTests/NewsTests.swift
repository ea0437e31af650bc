import Foundation
import IngestFeedFetch
import News
import Testing
import TinyHTTPServer

/// The headlines of the repository's sample feeds, served on 127.0.0.1.
@Suite("NewsReader's headlines")
struct NewsTests {
    /// The repository's Samples/ folder.
    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../../../Samples").standardized

    @Test("the five newest items of each sample, newest first, with plain-text summaries")
    func headlines() async throws {
        let server = try TinyHTTPServer()
        defer { server.stop() }
        for (path, type) in [
            ("podcast.rss", "application/rss+xml"), ("news.atom", "application/atom+xml"),
            ("feed.json", "application/feed+json")
        ] {
            let body = try [UInt8](Data(contentsOf: Self.samples.appendingPathComponent(path)))
            server.route("/\(path)") { _ in .init(headers: [("Content-Type", type)], body: body) }
        }
        let fetcher = FeedFetcher()
        do {
            try await check(server, with: fetcher)
        } catch {
            try await fetcher.shutdown()
            throw error
        }
        try await fetcher.shutdown()
    }

    func check(_ server: TinyHTTPServer, with fetcher: FeedFetcher) async throws {
        let podcast = try await newest(5, at: server.url("/podcast.rss"), with: fetcher)
        #expect(podcast.count == 3)
        #expect(podcast.first?.title == "Episode 42: The Last Sailmaker in Polperro")
        #expect(podcast.first?.summary.hasPrefix("Jory Pascoe has cut canvas") == true)
        let dates = podcast.compactMap(\.date)
        #expect(dates == dates.sorted(by: >) && dates.count == 3)
        for path in ["news.atom", "feed.json"] {
            let headlines = try await newest(5, at: server.url("/\(path)"), with: fetcher)
            #expect(!headlines.isEmpty && headlines.count <= 5, "\(path)")
            #expect(headlines.allSatisfy { !$0.summary.contains("<") }, "\(path): \(headlines)")
        }
        await #expect(throws: FeedFetchError.self) {
            try await newest(5, at: server.url("/missing.rss"), with: fetcher)
        }
    }
}
