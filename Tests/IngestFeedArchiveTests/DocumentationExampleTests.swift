// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import IngestFeedArchive
import IngestFeeds
import IngestSQLite
import IngestTestSupport
import Testing

/// IngestFeedArchive's DocC overview: its example compiles here as written and does
/// what the article says.
@Suite("IngestFeedArchive's documentation example")
struct DocumentationExampleTests {
    static let article = "Sources/IngestFeedArchive/IngestFeedArchive.docc/IngestFeedArchive.md"

    func archive(feedAt feedPath: String, into databasePath: String) throws -> FeedArchiveCounts {
        let archive = try FeedArchive { design in
            SQLiteOutput(path: databasePath, mode: .append, design: design)
        }
        return try archive.archive(.given(feedPath), fetch: FeedFetch(url: feedPath)) { deliver in
            try FeedReader().read(contentsOf: URL(fileURLWithPath: feedPath), deliver)
        }
    }

    /// The URLs of the archived feeds that are due now.
    func dueURLs(_ archive: FeedArchive) -> [String] {
        let due = archive.feeds.filter { $0.isDue() }.compactMap(\.url)
        return due
    }

    @Test("Every Swift snippet of the article is in this file")
    func snippetsCompile() throws {
        #expect(try swiftCodeBlocks(inArticle: Self.article).count == 2)
        #expect(try codeBlocks(ofArticle: Self.article, missingFrom: #filePath) == [])
    }

    @Test("The example archives the sample's three items, and a second run finds them unchanged")
    func exampleRuns() throws {
        let directory = try TemporaryDirectory()
        let feed = packageRoot.appendingPathComponent("Samples/podcast.rss").path
        let first = try archive(feedAt: feed, into: directory.path("feeds.db"))
        let second = try archive(feedAt: feed, into: directory.path("feeds.db"))
        #expect(first.description == "3 new, 0 changed, 0 unchanged")
        #expect(second.description == "0 new, 0 changed, 3 unchanged")
        // Just read: not due for an hour.
        let archive = try FeedArchive { design in SQLiteOutput(path: directory.path("feeds.db"), mode: .append, design: design) }
        #expect(dueURLs(archive) == [])
        #expect(archive.feeds.first?.isDue(at: Date().addingTimeInterval(3601)) == true)
    }
}
