// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import IngestCore
import IngestParsers
import IngestFeedArchive
import IngestFeeds
import IngestPostgres
import IngestTestSupport
import PostgresTestServer
import Testing

// The code of IngestPostgres's DocC catalog (Sources/IngestPostgres/IngestPostgres.docc),
// compiled and run against the test server; a test checks that every Swift block of
// the catalog appears here, line for line.

struct IngestPostgresArticle {
    func importFolks(from path: String, into database: String) throws -> ImportSummary {
        let output = try PostgresOutput(connectionString: database, mode: .replace)
        return try Importer().run([InputFile(path: path)], into: output)
    }

    func archive(_ feed: URL, into settings: PostgresConnectionSettings) throws -> FeedArchiveCounts {
        let archive = try FeedArchive { design in
            PostgresOutput(settings: settings, mode: .append, design: design)
        }
        return try archive.archive(.given(feed.path), fetch: FeedFetch(url: feed.path)) { deliver in
            try FeedReader().read(contentsOf: feed, deliver)
        }
    }
}

@Suite struct IngestPostgresDocumentationTests {
    @Test func everySnippetOfTheCatalogIsCompiledHere() throws {
        #expect(try codeBlocks(ofArticle: "Sources/IngestPostgres/IngestPostgres.docc/IngestPostgres.md", missingFrom: #filePath) == [])
    }

    @Test(.enabled(if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
    func importFolksTwiceReplacesTheTable() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("docc")
        let uri = server.uri(database)
        for _ in 1...2 {
            let summary = try await onThread { try IngestPostgresArticle().importFolks(from: folksURL.path, into: uri) }
            #expect(summary.recordCount == 3)
            #expect(summary.tables.map(\.name) == ["people"])
        }
        #expect(try server.psql("select firstname, lastname from people", database: database)
                == [["Matt", "Neuburg"], ["Snidely", "Whiplash"], ["Dudley", "Doright"]])
    }

    @Test(.enabled(if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
    func archiveThePodcastTwice() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("docc_feed")
        let settings = try server.settings(database)
        let podcast = packageRoot.appendingPathComponent("Samples/podcast.rss")
        let first = try await onThread { try IngestPostgresArticle().archive(podcast, into: settings) }
        let second = try await onThread { try IngestPostgresArticle().archive(podcast, into: settings) }
        #expect(first.new == 3 && first.unchanged == 0, "\(first)")
        #expect(second.new == 0 && second.changed == 0 && second.unchanged == 3, "\(second)")
        #expect(try server.psql("SELECT (SELECT count(*) FROM feeds), (SELECT count(*) FROM items), (SELECT count(*) FROM enclosures)",
                                database: database) == [["1", "3", "3"]])
    }
}
