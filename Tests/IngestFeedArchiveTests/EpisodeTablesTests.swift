import Foundation
import GRDB
import IngestFeedArchive
import IngestFeeds
import IngestTestSupport
import Testing

/// The typed columns and child tables a podcast app queries without JSON functions.
@Suite("FeedArchive: episode columns and tables")
struct EpisodeTablesTests {
    static let podcast = packageRoot.appendingPathComponent("Samples/podcast.rss")

    static func archiveSample(_ fixture: ArchiveFixture, into archive: FeedArchive? = nil) throws {
        let path = Self.podcast.path
        try (archive ?? fixture.archive()).archive(.given(path), fetch: FeedFetch(url: path)) { deliver in
            try FeedReader().read(contentsOf: Self.podcast, deliver)
        }
    }

    /// What the sample podcast's episode tables hold.
    static func episodeRows(_ fixture: ArchiveFixture) throws -> [[String?]] {
        try fixture.rows(
            "SELECT title, duration_seconds, episode, season, episode_type, explicit FROM items ORDER BY published_at DESC"
        )
            + fixture.rows("SELECT start_seconds, title, href FROM chapters ORDER BY start_seconds")
            + fixture.rows("SELECT name, role, href FROM persons ORDER BY name")
            + fixture.rows("SELECT start_seconds, duration_seconds, title FROM soundbites")
            + fixture.rows("SELECT url, type FROM transcripts")
            + fixture.rows("SELECT url, text FROM show_funding")
            + fixture.rows("SELECT name, role, href FROM show_persons")
    }

    static let sampleRows: [[String?]] = [
        ["Episode 42: The Last Sailmaker in Polperro", "3013", "42", "3", "full", "0"],
        ["Episode 41: Harbour Masters & Their Ledgers", "2490", "41", "3", nil, nil],
        ["Bonus: Listener Letters, Autumn", "723", nil, nil, "bonus", nil],
        ["0.0", "Welcome", nil], ["130.0", "Up to the loft", nil], ["1305.5", "Cotton duck and tarred twine", nil],
        ["2820.0", "Letters", "https://lowtide.example.org/letters"],
        ["Jory Pascoe", "guest", nil], ["Maren Holt", "host", "https://lowtide.example.org/maren"],
        ["1234.5", "42.25", "Why nobody wants a brown sail"],
        ["https://lowtide.example.org/transcripts/42.vtt", "text/vtt"],
        ["https://lowtide.example.org/support", "Keep the boats afloat"],
        ["Maren Holt", "host", "https://lowtide.example.org/maren"]
    ]

    @Test("the sample podcast answers duration, episode, season and chapters without JSON functions")
    func samplePodcast() throws {
        let fixture = try ArchiveFixture()
        try Self.archiveSample(fixture)
        #expect(try Self.episodeRows(fixture) == Self.sampleRows)
        // A re-run adds no second chapter, person or soundbite.
        try Self.archiveSample(fixture)
        #expect(try Self.episodeRows(fixture) == Self.sampleRows)
    }

    @Test("an archive made before the episode columns and tables gains them, filled for the items it stored")
    func oldArchiveMigrated() throws {
        let fixture = try ArchiveFixture()
        try Self.archiveSample(fixture)
        let queue = try DatabaseQueue(path: fixture.path)
        try queue.write { db in
            for table in [
                "chapters", "transcripts", "persons", "funding", "alternate_enclosures", "soundbites",
                "show_persons", "show_funding"
            ] {
                try db.execute(sql: "DROP TABLE \(table)")
            }
            for column in ["duration_seconds", "episode", "season", "episode_type", "explicit"] {
                try db.execute(sql: "ALTER TABLE items DROP COLUMN \(column)")
            }
        }
        try queue.close()

        let archive = try fixture.archive()
        #expect(try Self.episodeRows(fixture) == Self.sampleRows, "filled from the stored extensions, before any read")
        try Self.archiveSample(fixture, into: archive)
        #expect(try Self.episodeRows(fixture) == Self.sampleRows)
    }

    @Test("an archive with the episode tables but not the show's gains these, filled from the feeds it stored")
    func archiveWithoutShowTablesMigrated() throws {
        let fixture = try ArchiveFixture()
        try Self.archiveSample(fixture)
        let queue = try DatabaseQueue(path: fixture.path)
        try queue.write { db in
            try db.execute(sql: "DROP TABLE show_persons")
            try db.execute(sql: "DROP TABLE show_funding")
        }
        try queue.close()

        _ = try fixture.archive()
        #expect(try Self.episodeRows(fixture) == Self.sampleRows, "filled from the stored extensions, before any read")
    }

    @Test("a show's own people and funding, on its channel: show_persons and show_funding, each once")
    func showTables() throws {
        let fixture = try ArchiveFixture()
        let feed = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Show</title>
            <podcast:person role="host" img="https://example.org/ann.jpg">Ann</podcast:person>
            <podcast:person group="writing" role="author">Ann</podcast:person>
            <podcast:person>Ben</podcast:person>
            <podcast:person role="host">Ann</podcast:person>
            <podcast:funding url="https://example.org/give">Give</podcast:funding>
            <podcast:funding url="https://example.org/give">Twice</podcast:funding>
            <item><title>One</title><guid>1</guid><podcast:person role="guest">Cy</podcast:person></item>
            </channel></rss>
            """
        for _ in 0..<2 {
            try fixture.archive().archive(.given("show"), fetch: FeedFetch(url: "show")) { deliver in
                try FeedReader().read(data: Data(feed.utf8), deliver)
            }
        }
        #expect(
            try fixture.rows("SELECT name, role, role_group, img FROM show_persons ORDER BY name, role") == [
                ["Ann", "author", "writing", nil], ["Ann", "host", nil, "https://example.org/ann.jpg"],
                ["Ben", "", nil, nil]
            ])
        #expect(try fixture.rows("SELECT url, text FROM show_funding") == [["https://example.org/give", "Give"]])
        #expect(
            try fixture.rows("SELECT name, role FROM persons") == [["Cy", "guest"]], "an episode's people stay its own")
        #expect(try fixture.rows("SELECT count(*) FROM show_persons WHERE feed_id = (SELECT id FROM feeds)") == [["3"]])
    }

    @Test("Podcasting 2.0 funding and alternate enclosures; iTunes first, else podcast:episode and podcast:season")
    func podcastIndexTags() throws {
        let fixture = try ArchiveFixture()
        let feed = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>P</title>
            <item><guid>one</guid><title>One</title><podcast:episode>7</podcast:episode>
            <podcast:season name="Autumn">2</podcast:season>
            <podcast:funding url="https://example.org/give">Give</podcast:funding>
            <podcast:alternateEnclosure type="audio/opus" length="1000" bitrate="64000" default="true">
              <podcast:source uri="https://example.org/one.opus"/></podcast:alternateEnclosure>
            <podcast:soundbite startTime="-1" duration="10">skipped: no start time</podcast:soundbite>
            </item>
            <item><guid>half</guid><title>Half</title><podcast:episode>7.5</podcast:episode></item>
            </channel></rss>
            """
        try fixture.archive(feed)
        #expect(
            try fixture.rows("SELECT guid, episode, season FROM items ORDER BY guid") == [
                ["half", nil, nil], ["one", "7", "2"]
            ])
        #expect(try fixture.rows("SELECT url, text FROM funding") == [["https://example.org/give", "Give"]])
        #expect(
            try fixture.rows("SELECT url, type, length, bitrate, is_default FROM alternate_enclosures")
                == [["https://example.org/one.opus", "audio/opus", "1000", "64000.0", "1"]])
        #expect(try fixture.value("SELECT count(*) FROM soundbites") == "0")
    }
}
