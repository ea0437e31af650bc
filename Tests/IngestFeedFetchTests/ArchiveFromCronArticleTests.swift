// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import IngestFeedArchive
import IngestFeedFetch
import IngestFeeds
import IngestSQLite
import IngestTestSupport
import LoopbackHTTPServer
import Testing

/// "Keeping an archive from cron" (IngestFeedFetch.docc/KeepingAnArchiveFromCron.md)
/// and the catalog's landing page: their snippets compile here as written, and do
/// what the articles say.
@Suite("The articles on keeping an archive from cron and on fetching")
struct ArchiveFromCronArticleTests {
    static let article = "Sources/IngestFeedFetch/IngestFeedFetch.docc/KeepingAnArchiveFromCron.md"
    static let landing = "Sources/IngestFeedFetch/IngestFeedFetch.docc/IngestFeedFetch.md"

    func update(_ url: URL, in archive: FeedArchive, with fetcher: FeedFetcher) async throws -> String {
        let source = url.absoluteString
        let stored = archive.storedFeed(for: source)
        let request = FeedRequest(url: stored?.url.flatMap(URL.init(string:)) ?? url,
                                  etag: stored?.etag, lastModified: stored?.lastModified)
        switch try await fetcher.fetch(request) {
        case .notModified(let response):
            try archive.recordNotModified(source, fetch: response.archiveRecord)
            return "not modified"
        case .feed(let feed, let response):
            var bare = feed
            bare.items = []
            let counts = try archive.archive(.given(source), fetch: response.archiveRecord) { deliver in
                for item in feed.items { try deliver(item, bare) }
                return bare
            }
            return counts.description
        }
    }

    func exitStatus(_ failures: [FeedFetchError]) -> Int32 {
        if failures.isEmpty { return 0 }
        return failures.allSatisfy(\.isTemporary) ? 75 : 1
    }

    func latestTitles(of url: URL) async throws -> [String] {
        let fetcher = FeedFetcher()
        do {
            let result = try await fetcher.fetch(FeedRequest(url: url))
            try await fetcher.shutdown()
            return result.feed?.items.prefix(5).compactMap { $0.title?.plainText } ?? []
        } catch {
            try await fetcher.shutdown()
            throw error
        }
    }

    @Test("Every Swift snippet of the articles is in this file")
    func snippetsCompile() throws {
        #expect(try swiftCodeBlocks(inArticle: Self.article).count == 2)
        #expect(try codeBlocks(ofArticle: Self.article, missingFrom: #filePath) == [])
        #expect(try swiftCodeBlocks(inArticle: Self.landing).count == 1)
        #expect(try codeBlocks(ofArticle: Self.landing, missingFrom: #filePath) == [])
    }

    @Test("a first run archives the sample's items, the next sends the ETag back and keeps them on 304")
    func cronRuns() async throws {
        let server = try LoopbackHTTPServer()
        let sample = try Data(contentsOf: packageRoot.appendingPathComponent("Samples/podcast.rss"))
        var route = LoopbackHTTPServer.Route(headers: [("Content-Type", "application/rss+xml"), ("ETag", "\"e1\"")],
                                             body: Array(sample))
        route.notModifiedForETag = "\"e1\""
        server.route("/podcast.rss", route)
        server.route("/busy.rss", LoopbackHTTPServer.Route(status: .serviceUnavailable))
        let directory = try TemporaryDirectory()
        let database = directory.path("feeds.db")
        let url = URL(string: server.url("/podcast.rss"))!
        let fetcher = FeedFetcher()
        var said: [String] = []
        var failures: [FeedFetchError] = []
        do {
            for _ in 0..<2 {
                let archive = try FeedArchive { design in SQLiteOutput(path: database, mode: .append, design: design) }
                said.append(try await update(url, in: archive, with: fetcher))
            }
            do {
                _ = try await fetcher.fetch(FeedRequest(url: URL(string: server.url("/busy.rss"))!))
            } catch let error as FeedFetchError {
                failures.append(error)
            }
            try await fetcher.shutdown()
        } catch {
            try await fetcher.shutdown()
            throw error
        }
        #expect(said == ["3 new, 0 changed, 0 unchanged", "not modified"])
        #expect(server.requests("/podcast.rss").map { $0.header("If-None-Match") } == [nil, "\"e1\""])
        #expect(exitStatus([]) == 0)
        #expect(exitStatus(failures) == 75)
        #expect(try await latestTitles(of: url).count == 3)
    }
}
