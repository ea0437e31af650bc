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
        try fixture.rows("SELECT title, duration_seconds, episode, season, episode_type, explicit FROM items ORDER BY published_at DESC")
            + fixture.rows("SELECT start_seconds, title, href FROM chapters ORDER BY start_seconds")
            + fixture.rows("SELECT name, role, href FROM persons ORDER BY name")
            + fixture.rows("SELECT start_seconds, duration_seconds, title FROM soundbites")
            + fixture.rows("SELECT url, type FROM transcripts")
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
            for table in ["chapters", "transcripts", "persons", "funding", "alternate_enclosures", "soundbites"] {
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
        #expect(try fixture.rows("SELECT guid, episode, season FROM items ORDER BY guid") == [["half", nil, nil], ["one", "7", "2"]])
        #expect(try fixture.rows("SELECT url, text FROM funding") == [["https://example.org/give", "Give"]])
        #expect(try fixture.rows("SELECT url, type, length, bitrate, is_default FROM alternate_enclosures")
                == [["https://example.org/one.opus", "audio/opus", "1000", "64000.0", "1"]])
        #expect(try fixture.value("SELECT count(*) FROM soundbites") == "0")
    }
}
