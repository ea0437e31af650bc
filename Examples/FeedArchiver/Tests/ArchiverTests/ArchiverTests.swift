import Archiver
import Foundation
import IngestFeedArchive
import IngestFeedFetch
import Testing
import TinyHTTPServer

/// Cron runs of the archiver against Samples/podcast.rss served on 127.0.0.1.
@Suite("FeedArchiver's cron runs")
struct ArchiverTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../../Samples/podcast.rss").standardized

    @Test("first run archives, the second sends the ETag and keeps everything on 304; failures give 75 or 1")
    func cronRuns() async throws {
        let server = try TinyHTTPServer()
        defer { server.stop() }
        let body = try [UInt8](Data(contentsOf: Self.sample))
        server.route("/podcast.rss") { request in
            request.headers["if-none-match"] == "\"v1\""
                ? .init(status: 304, headers: [("ETag", "\"v1\"")])
                : .init(headers: [("Content-Type", "application/rss+xml"), ("ETag", "\"v1\"")], body: body)
        }
        server.route("/busy.rss") { _ in .init(status: 503) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("FeedArchiver-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("feeds.db").path

        let fetcher = FeedFetcher()
        var runs: [[Archiver.Outcome]] = []
        let stored: StoredFeed?
        do {
            for urls in [["/podcast.rss"], ["/podcast.rss", "/busy.rss"], ["/missing.rss"]] {
                // A new archiver for each run, as cron starts a new process.
                let archiver = try Archiver(databasePath: database, fetcher: fetcher)
                var outcomes: [Archiver.Outcome] = []
                for url in urls { outcomes.append(await archiver.update(server.url(url))) }
                runs.append(outcomes)
            }
            stored = try Archiver(databasePath: database, fetcher: fetcher).archive
                .storedFeed(for: server.url("/podcast.rss").absoluteString)
        } catch {
            try await fetcher.shutdown()
            throw error
        }
        try await fetcher.shutdown()

        var new = FeedArchiveCounts()
        new.new = 3
        #expect(runs[0] == [.archived(new)])
        #expect(Archiver.exitStatus(runs[0]) == 0)
        #expect(runs[1].first == .notModified)
        #expect(Archiver.exitStatus(runs[1]) == 75)
        #expect(Archiver.exitStatus(runs[2]) == 1)
        let sent = server.requests.filter { $0.path == "/podcast.rss" }.map { $0.headers["if-none-match"] }
        #expect(sent == [nil, "\"v1\""])
        #expect(stored?.etag == "\"v1\"")
        #expect(stored?.lastStatus == 304)
        #expect(stored?.title == "Low Tide Radio")
    }
}
