import Foundation
import GRDB
import IngestFeedArchive
import IngestFeeds
import IngestTestSupport
import Testing

/// Every fetch leaves its trace on the feed's row (issue 25): a 304 too, failures
/// counted in a row, the next fetch by the schedule — also in an archive made
/// before those columns existed.
@Suite("FeedArchive: every fetch recorded, and when to fetch next")
struct FeedArchiveFetchRecordTests {
    static let source = "https://example.org/feed.xml"
    static let feed =
        #"<rss version="2.0"><channel><title>T</title><description>D</description><ttl>120</ttl>"#
        + #"<skipDays><day>Sunday</day></skipDays><item><guid>a</guid><title>A</title></item></channel></rss>"#
    /// Friday 27 November 2026, 10:30 UTC, and the same day's later times.
    static let friday = Date(timeIntervalSince1970: 1_795_775_400)

    static func at(_ seconds: TimeInterval) -> Date { friday.addingTimeInterval(seconds) }

    @Test("a read stores what the feed says and the next fetch; failures count up and back off; a success resets them")
    func successAndFailures() throws {
        let fixture = try ArchiveFixture()
        let archive = try fixture.archive()
        try fixture.archive(
            Self.feed, fetch: FeedFetch(url: Self.source, status: 200, etag: "\"1\"", date: Self.friday),
            into: archive)
        #expect(
            try fixture.rows("SELECT last_status, failures, next_fetch, ttl, skip_days FROM feeds")
                == [["200", "0", "2026-11-27T12:30:00Z", "120", "[7]"]])

        try archive.recordFailure(
            Self.source, fetch: FeedFetch(url: Self.source, status: 500, date: Self.at(7200)), error: "HTTP 500")
        try archive.recordFailure(
            Self.source, fetch: FeedFetch(url: Self.source, date: Self.at(9000)), error: "timed out")
        // Only the fetch's columns are written: what the read stored stays.
        #expect(
            try fixture.rows("SELECT last_status, last_error, failures, next_fetch, etag, ttl, description FROM feeds")
                == [[nil, "timed out", "2", "2026-11-27T13:30:00Z", "\"1\"", "120", "D"]])
        let stored = try #require(archive.storedFeed(for: Self.source))
        #expect(stored.failures == 2)
        #expect(stored.nextFetch == Self.at(3 * 3600))
        #expect(!stored.isDue(at: Self.at(3 * 3600 - 1)) && stored.isDue(at: Self.at(3 * 3600)))

        // A 503 asking for two hours: longer than the third failure's hour.
        try archive.recordFailure(
            Self.source,
            fetch: FeedFetch(
                url: Self.source, status: 503, date: Self.at(10800),
                retryAfter: Self.at(18000)), error: "HTTP 503")
        #expect(try fixture.rows("SELECT failures, next_fetch FROM feeds") == [["3", "2026-11-27T15:30:00Z"]])

        try fixture.archive(
            Self.feed, fetch: FeedFetch(url: Self.source, status: 200, date: Self.at(18000)), into: archive)
        #expect(
            try fixture.rows("SELECT last_error, failures, next_fetch FROM feeds") == [
                [nil, "0", "2026-11-27T17:30:00Z"]
            ])
    }

    @Test(
        "a 304 updates last_fetched and last_status, clears the error, and schedules by the headers and the stored ttl")
    func notModified() throws {
        let fixture = try ArchiveFixture()
        let archive = try fixture.archive()
        try fixture.archive(
            Self.feed, fetch: FeedFetch(url: Self.source, status: 200, etag: "\"1\"", date: Self.friday),
            into: archive)
        try archive.recordFailure(
            Self.source, fetch: FeedFetch(url: Self.source, status: 502, date: Self.at(600)), error: "HTTP 502")

        try archive.recordNotModified(Self.source, fetch: FeedFetch(url: Self.source, status: 304, date: Self.at(3600)))
        #expect(
            try fixture.rows(
                "SELECT last_fetched, last_status, last_error, failures, next_fetch, etag, title, description FROM feeds"
            ) == [["2026-11-27T11:30:00Z", "304", nil, "0", "2026-11-27T13:30:00Z", "\"1\"", "T", "D"]])
        #expect(try fixture.rows("SELECT count(*) FROM items") == [["1"]])

        // The 304's own max-age, longer than the ttl, wins.
        try archive.recordNotModified(
            Self.source,
            fetch: FeedFetch(
                url: Self.source, status: 304, date: Self.at(7200),
                expires: Self.at(7200 + 14400)))
        #expect(try fixture.rows("SELECT next_fetch FROM feeds") == [["2026-11-27T16:30:00Z"]])
    }

    @Test("an archive made before the schedule's columns gains them on its next run, NULL in the old rows")
    func oldArchiveMigrated() throws {
        let fixture = try ArchiveFixture()
        try fixture.archive(Self.feed, fetch: FeedFetch(url: Self.source, status: 200, date: Self.friday))
        let added = ["failures", "next_fetch", "ttl", "skip_hours", "skip_days", "update_period", "update_frequency"]
        let queue = try DatabaseQueue(path: fixture.path)
        try queue.write { db in
            for column in added { try db.execute(sql: "ALTER TABLE feeds DROP COLUMN \(column)") }
        }
        try queue.close()

        let archive = try fixture.archive()
        let stored = try #require(archive.storedFeed(for: Self.source))
        #expect(stored.nextFetch == nil && stored.isDue() && stored.failures == 0)
        try archive.recordFailure(
            Self.source, fetch: FeedFetch(url: Self.source, status: 500, date: Self.at(60)), error: "HTTP 500")
        #expect(try fixture.rows("SELECT failures, next_fetch, ttl FROM feeds") == [["1", "2026-11-27T10:46:00Z", nil]])
        try fixture.archive(
            Self.feed, fetch: FeedFetch(url: Self.source, status: 200, date: Self.at(3600)), into: archive)
        #expect(
            try fixture.rows("SELECT failures, next_fetch, ttl FROM feeds") == [["0", "2026-11-27T13:30:00Z", "120"]])
        let columns = try fixture.rows("SELECT name FROM pragma_table_info('feeds')").compactMap(\.first).compactMap {
            $0
        }
        #expect(Array(columns.suffix(added.count)) == added)
    }

    @Test(
        "a subscription list's folders: a row made for a new source, kept through reads and failures, changed by the next list"
    )
    func subscriptionFolders() throws {
        let fixture = try ArchiveFixture()
        let archive = try fixture.archive()
        try archive.recordSubscriptions([(Self.source, ["News/Tech", "Later"]), ("https://example.org/other.xml", [])])
        #expect(
            try fixture.rows("SELECT source, subscription_categories, next_fetch FROM feeds ORDER BY source")
                == [
                    ["https://example.org/feed.xml", #"["News/Tech","Later"]"#, nil],
                    ["https://example.org/other.xml", nil, nil]
                ])
        #expect(archive.storedFeed(for: Self.source)?.isDue() == true)

        try fixture.archive(
            Self.feed, fetch: FeedFetch(url: Self.source, status: 200, date: Self.friday), into: archive)
        try archive.recordFailure(
            Self.source, fetch: FeedFetch(url: Self.source, status: 500, date: Self.at(60)), error: "HTTP 500")
        #expect(archive.storedFeed(for: Self.source)?.subscriptionCategories == ["News/Tech", "Later"])
        #expect(try fixture.archive().storedFeed(for: Self.source)?.subscriptionCategories == ["News/Tech", "Later"])
        #expect(try fixture.rows("SELECT title, failures FROM feeds WHERE source = '\(Self.source)'") == [["T", "1"]])

        try archive.recordSubscriptions([(Self.source, ["News"])])
        #expect(try fixture.archive().storedFeed(for: Self.source)?.subscriptionCategories == ["News"])
        #expect(try fixture.rows("SELECT title, failures FROM feeds WHERE source = '\(Self.source)'") == [["T", "1"]])
    }

    @Test("many fetches in one transaction: each row as one call would leave it, a source listed twice counted twice")
    func manyFetchesAtOnce() throws {
        let fixture = try ArchiveFixture()
        let archive = try fixture.archive()
        let other = "https://example.org/other.xml"
        let new = "https://example.org/new.xml"
        for source in [Self.source, other] {
            try fixture.archive(
                Self.feed, source: source, fetch: FeedFetch(url: source, status: 200, etag: "\"1\"", date: Self.friday),
                into: archive)
        }
        try archive.recordFetches([
            (Self.source, FeedFetch(url: Self.source, status: 304, date: Self.at(3600)), nil),
            (other, FeedFetch(url: other, status: 500, date: Self.at(3600)), "HTTP 500"),
            (new, FeedFetch(url: new, status: 404, date: Self.at(3600)), "HTTP 404"),
            (other, FeedFetch(url: other, date: Self.at(3700)), "timed out")
        ])
        #expect(
            try fixture.rows(
                "SELECT source, last_status, last_error, failures, next_fetch, etag FROM feeds ORDER BY source")
                == [
                    [Self.source, "304", nil, "0", "2026-11-27T13:30:00Z", "\"1\""],
                    [new, "404", "HTTP 404", "1", "2026-11-27T11:45:00Z", nil],
                    [other, nil, "timed out", "2", "2026-11-27T12:01:40Z", "\"1\""]
                ])
        // What the archive keeps in memory agrees with what it wrote.
        #expect(archive.storedFeed(for: other)?.failures == 2)
        #expect(archive.storedFeed(for: new)?.lastStatus == 404)
        #expect(try fixture.archive().storedFeed(for: other)?.failures == 2)
        try archive.recordFetches([])
        #expect(try fixture.rows("SELECT count(*) FROM items") == [["2"]])
    }
}
