import Foundation
import IngestTestSupport
import GRDB
import IngestCore
import IngestFeedArchive
import IngestFeeds
import IngestSQLite
import Testing

@Suite("FeedArchive: feeds into a database that re-runs cleanly")
struct FeedArchiveTests {
    static let podcast = packageRoot.appendingPathComponent("Samples/podcast.rss")

    @Test(
        "An archive made before another run archived a source reads that source under the lock: nothing undone, nothing counted new again"
    )
    func overlappingRunsSeeWhatWasCommitted() throws {
        let fixture = try ArchiveFixture()
        let early = try fixture.archive()  // reads the feeds table while it is still empty
        let source = "https://example.org/feed.xml"
        let text =
            #"<rss version="2.0"><channel><title>T</title><item><guid>a</guid><title>A</title></item>"#
            + #"<item><guid>b</guid><title>B</title></item></channel></rss>"#
        let validators = FeedFetch(
            url: source, status: 200, etag: "\"v1\"", lastModified: "Tue, 24 Nov 2026 10:00:00 GMT")
        try fixture.archive().archive(.given(source), fetch: validators) { deliver in
            try FeedReader().read(data: Data(text.utf8), deliver)
        }

        try early.recordFailure(source, fetch: FeedFetch(url: source, status: 503), error: "HTTP 503")
        #expect(
            try fixture.rows("SELECT etag, last_modified, last_status, last_error FROM feeds")
                == [["\"v1\"", "Tue, 24 Nov 2026 10:00:00 GMT", "503", "HTTP 503"]])
        let again = try early.archive(.given(source), fetch: validators) { deliver in
            try FeedReader().read(data: Data(text.utf8), deliver)
        }
        #expect(again.description == "0 new, 0 changed, 2 unchanged")
        #expect(try fixture.rows("SELECT count(*) FROM feeds") == [["1"]])
    }

    @Test("the sample podcast: one feed row, its items, enclosures and authors")
    func samplePodcast() throws {
        let fixture = try ArchiveFixture()
        let path = Self.podcast.path
        let counts = try fixture.archive().archive(.given(path), fetch: FeedFetch(url: path)) { deliver in
            try FeedReader().read(contentsOf: Self.podcast, deliver)
        }
        #expect(
            counts
                == {
                    var c = FeedArchiveCounts()
                    c.new = 3
                    return c
                }())
        #expect(
            try fixture.rows(
                "SELECT source, url, title, type, version, link, feed_link, well_formed, last_status, last_error FROM feeds"
            )
                == [
                    [
                        path, path, "Low Tide Radio", "rss", "2.0", "https://lowtide.example.org/",
                        "https://lowtide.example.org/podcast.rss", "1", nil, nil
                    ]
                ])
        #expect(
            try fixture.rows("SELECT guid, title, published_at FROM items ORDER BY published_at DESC") == [
                ["lowtide-ep-42", "Episode 42: The Last Sailmaker in Polperro", "2026-11-19T06:00:00Z"],
                ["lowtide-ep-41", "Episode 41: Harbour Masters & Their Ledgers", "2026-11-05T06:00:00Z"],
                ["lowtide-bonus-2026-autumn", "Bonus: Listener Letters, Autumn", "2026-10-26T17:30:00Z"]
            ])
        #expect(
            try fixture.rows(
                "SELECT e.url, e.type, e.length FROM enclosures e JOIN items i ON i.id = e.item_id WHERE i.guid = 'lowtide-ep-42'"
            )
                == [["https://media.lowtide.example.org/ep42.mp3", "audio/mpeg", "48213760"]])
        // The iTunes elements are kept as gofeed writes them.
        let extensions = try #require(try fixture.value("SELECT extensions FROM items WHERE guid = 'lowtide-ep-42'"))
        #expect(extensions.contains(#""duration":"50:13""#))
        #expect(try fixture.value("SELECT count(*) FROM items i JOIN feeds f ON f.id = i.feed_id") == "3")
    }

    @Test("a re-run changes nothing; a changed item is updated in place; a new one is added")
    func reRuns() throws {
        let fixture = try ArchiveFixture()
        let first = [("a", "Alpha", "one"), ("b", "Beta", "two"), ("c", "Gamma", "three")].map {
            (guid: Optional($0.0), title: $0.1, description: $0.2)
        }
        #expect(try fixture.archive(rss(first)).new == 3)
        // A re-run is a later fetch: when it happened and when to fetch next may change.
        let fetchTimes: Set<String> = ["last_fetched", "next_fetch"]
        let stored = try fixture.dump(ignoring: fetchTimes)

        let again = try fixture.archive(rss(first))
        #expect(again.unchanged == 3 && again.new == 0 && again.changed == 0)
        #expect(try fixture.dump(ignoring: fetchTimes) == stored)

        var edited = first
        edited[1].description = "two, revised"
        let later = FeedFetch(
            url: "https://example.org/feed.xml", status: 200, date: Date(timeIntervalSince1970: 1_800_000_000))
        let changed = try fixture.archive(rss(edited), fetch: later)
        #expect(changed.changed == 1 && changed.unchanged == 2 && changed.new == 0)
        #expect(try fixture.value("SELECT summary FROM items WHERE guid = 'b'") == "two, revised")
        #expect(try fixture.value("SELECT count(*) FROM items") == "3")
        // The changed item keeps when it was first seen, and says when it changed.
        let firstSeen = try fixture.value("SELECT first_seen FROM items WHERE guid = 'a'")
        #expect(
            try fixture.rows("SELECT first_seen, last_changed FROM items WHERE guid = 'b'")
                == [[firstSeen, "2027-01-15T08:00:00Z"]])
        #expect(firstSeen != "2027-01-15T08:00:00Z")

        let added = try fixture.archive(rss(edited + [(guid: "d", title: "Delta", description: "four")]))
        #expect(added.new == 1 && added.unchanged == 3)
        #expect(try fixture.value("SELECT count(*) FROM items") == "4")
    }

    @Test("identity: guid, else link, else title and date; a repeated item is kept once")
    func identity() throws {
        let fixture = try ArchiveFixture()
        // No guid: the link is the identity; the title may change.
        let byLink = rss([(nil, "First title", "x")])
        #expect(try fixture.archive(byLink, source: "linked").new == 1)
        let renamed = try fixture.archive(rss([(nil, "Second title", "x")]), source: "linked")
        #expect(renamed.changed == 1 && renamed.new == 0)
        // Neither guid nor link: title and date.
        let bare = rss([(nil, "Only a title", "x")], link: false)
        #expect(try fixture.archive(bare, source: "bare").new == 1)
        #expect(try fixture.archive(bare, source: "bare").unchanged == 1)
        #expect(try fixture.archive(rss([(nil, "Another title", "x")], link: false), source: "bare").new == 1)
        // The same guid twice in one read.
        let twice = try fixture.archive(rss([("g", "One", "x"), ("g", "Two", "y")]), source: "twice")
        #expect(twice.new == 1 && twice.repeated == 1)
        #expect(try fixture.value("SELECT title FROM items WHERE guid = 'g'") == "One")
        // Two feeds with the same guids keep their own items.
        try fixture.archive(rss([("g", "Other feed", "z")]), source: "other")
        #expect(try fixture.value("SELECT count(*) FROM items WHERE guid = 'g'") == "2")
        #expect(try fixture.value("SELECT count(*) FROM feeds") == "4")
    }

    @Test("a read that fails archives nothing of it, on a new file and on an existing one")
    func failedReadWritesNothing() throws {
        let fixture = try ArchiveFixture()
        struct Cut: Error {}
        let items = [("a", "A", "1"), ("b", "B", "2")].map { (guid: Optional($0.0), title: $0.1, description: $0.2) }
        #expect(throws: Cut.self) {
            try fixture.archive().archive(.given("s"), fetch: FeedFetch(url: "s")) { deliver in
                var count = 0
                return try FeedReader().read(data: Data(rss(items).utf8)) { item, feed in
                    count += 1
                    if count == 2 { throw Cut() }
                    try deliver(item, feed)
                }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.path))
        try fixture.archive(rss(items), source: "s")
        let stored = try fixture.dump()
        #expect(throws: Cut.self) {
            try fixture.archive().archive(.given("s"), fetch: FeedFetch(url: "s", etag: "\"new\"")) { deliver in
                _ = try FeedReader().read(data: Data(rss(items + [("c", "C", "3")]).utf8), deliver)
                throw Cut()
            }
        }
        #expect(try fixture.dump() == stored)
    }

    @Test("validators and a moved URL are stored; a failure keeps them and says what went wrong")
    func fetchColumns() throws {
        let fixture = try ArchiveFixture()
        let source = "http://127.0.0.1:9/old.xml"
        try fixture.archive(
            rss([("a", "A", "1")]), source: source,
            fetch: FeedFetch(
                url: "http://127.0.0.1:9/new.xml", status: 200, etag: "\"v1\"",
                lastModified: "Mon, 02 Nov 2026 10:00:00 GMT"))
        let archive = try fixture.archive()
        let stored = try #require(archive.storedFeed(for: source))
        #expect(stored.url == "http://127.0.0.1:9/new.xml")
        #expect(stored.etag == "\"v1\"")
        #expect(stored.lastModified == "Mon, 02 Nov 2026 10:00:00 GMT")
        // Found by its new address too.
        #expect(archive.storedFeed(for: "http://127.0.0.1:9/new.xml")?.id == stored.id)

        try archive.recordFailure(
            source, fetch: FeedFetch(url: "http://127.0.0.1:9/new.xml", status: 503), error: "HTTP 503")
        #expect(
            try fixture.rows("SELECT url, etag, title, last_status, last_error FROM feeds")
                == [["http://127.0.0.1:9/new.xml", "\"v1\"", "Test feed", "503", "HTTP 503"]])
        #expect(try fixture.value("SELECT count(*) FROM items") == "1")
        // A source never read: a row that says only that it failed.
        try archive.recordFailure(
            "http://127.0.0.1:9/never.xml", fetch: FeedFetch(url: "http://127.0.0.1:9/never.xml"),
            error: "connection refused")
        #expect(
            try fixture.rows("SELECT source, title, last_status, last_error FROM feeds WHERE source LIKE '%never%'")
                == [["http://127.0.0.1:9/never.xml", nil, nil, "connection refused"]])
        // A success clears the error.
        try fixture.archive(
            rss([("a", "A", "1")]), source: source, fetch: FeedFetch(url: "http://127.0.0.1:9/new.xml", status: 200))
        #expect(
            try fixture.rows("SELECT last_status, last_error FROM feeds WHERE source = '\(source)'") == [["200", nil]])
    }

    @Test("standard input is named stdin: and the feed's own address")
    func namedByTheFeed() throws {
        let fixture = try ArchiveFixture()
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Piped</title><id>urn:x</id><updated>2026-11-02T10:00:00Z</updated>
            <link rel="self" href="https://example.org/atom.xml"/><entry><id>urn:e1</id><title>E</title><updated>2026-11-02T10:00:00Z</updated></entry></feed>
            """
        for _ in 0..<2 {
            try fixture.archive().archive(.fromFeed, fetch: FeedFetch(url: "-")) { deliver in
                try FeedReader().read(data: Data(atom.utf8), deliver)
            }
        }
        #expect(
            try fixture.rows("SELECT source, title, type FROM feeds") == [
                ["stdin:https://example.org/atom.xml", "Piped", "atom"]
            ])
        #expect(try fixture.value("SELECT count(*) FROM items") == "1")
    }

    @Test(
        "a database that is not an archive is refused before anything is written: an unrelated feeds or items table",
        arguments: ["feeds", "items"])
    func notAnArchive(table: String) throws {
        let fixture = try ArchiveFixture()
        try SQLiteOutput(path: fixture.path, mode: .create).writeAndCommit { sink in
            let names = NameTable()
            try sink.write(IngestRecord(table: table, fields: [.init(name: names.intern("name"), value: .text("x"))]))
        }
        let error = try #require(throws: IngestError.self) { try fixture.archive() }
        #expect(error.kind == .output)
        #expect(error.message.contains("not a feed archive"))
    }

    @Test("items are stored in the order read, their hash key a unique index; no index repeats a primary key")
    func storageLayout() throws {
        let fixture = try ArchiveFixture()
        let items = (0..<60).map { (guid: Optional("item-\($0)"), title: "Title \($0)", description: "text \($0)") }
        #expect(try fixture.archive(rss(items)).new == 60)
        // With the hash as the rowid they would come back in the hashes' order.
        #expect(try fixture.rows("SELECT guid FROM items ORDER BY rowid").map { $0[0] } == items.map(\.guid))
        #expect(try fixture.value("SELECT count(*) FROM items WHERE rowid = id") == "0")
        let indexes = try fixture.rows(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        #expect(indexes == [["items_feed_id"]])

        // Read back one row at a time, the same rows as collected.
        let output = SQLiteOutput(path: fixture.path, mode: .append, design: FeedArchive.design)
        var streamed: [[FieldValue]] = []
        try output.forEachStoredRow(in: "items", columns: ["id", "guid"], matching: [:]) { streamed.append($0) }
        #expect(streamed.count == 60)
        #expect(streamed == (try output.storedRows(in: "items", columns: ["id", "guid"], matching: [:])))
    }

    @Test("an archive whose keys are the rowid (as made before) re-runs in place")
    func archiveOfTheEarlierLayout() throws {
        let fixture = try ArchiveFixture()
        let queue = try DatabaseQueue(path: fixture.path)
        try queue.write { db in
            try db.execute(
                sql: #"""
                    CREATE TABLE "feeds" ("id" INTEGER NOT NULL, "source" TEXT NOT NULL, "url" TEXT, "title" TEXT, "link" TEXT, "feed_link" TEXT, "description" TEXT, "type" TEXT, "version" TEXT, "language" TEXT, "copyright" TEXT, "generator" TEXT, "image" TEXT, "author" TEXT, "categories" TEXT, "updated" TEXT, "updated_at" TEXT, "published" TEXT, "published_at" TEXT, "well_formed" INTEGER, "first_error" TEXT, "extensions" TEXT, "etag" TEXT, "last_modified" TEXT, "last_fetched" TEXT, "last_status" INTEGER, "last_error" TEXT, PRIMARY KEY ("id"));
                    CREATE TABLE "items" ("feed_id" INTEGER NOT NULL REFERENCES "feeds" ("id") ON DELETE CASCADE, "id" INTEGER NOT NULL, "guid" TEXT, "link" TEXT, "title" TEXT, "summary" TEXT, "content" TEXT, "author" TEXT, "published" TEXT, "published_at" TEXT, "updated" TEXT, "updated_at" TEXT, "image" TEXT, "extensions" TEXT, "content_hash" INTEGER NOT NULL, "first_seen" TEXT, "last_changed" TEXT, PRIMARY KEY ("id"));
                    CREATE INDEX "items_feed_id" ON "items" ("feed_id");
                    CREATE TABLE "enclosures" ("item_id" INTEGER NOT NULL REFERENCES "items" ("id") ON DELETE CASCADE, "url" TEXT NOT NULL, "type" TEXT, "length" INTEGER, PRIMARY KEY ("item_id", "url"));
                    CREATE INDEX "enclosures_item_id" ON "enclosures" ("item_id");
                    CREATE TABLE "categories" ("item_id" INTEGER NOT NULL REFERENCES "items" ("id") ON DELETE CASCADE, "name" TEXT NOT NULL, PRIMARY KEY ("item_id", "name"));
                    CREATE TABLE "authors" ("item_id" INTEGER NOT NULL REFERENCES "items" ("id") ON DELETE CASCADE, "name" TEXT NOT NULL, "email" TEXT NOT NULL, "url" TEXT, PRIMARY KEY ("item_id", "name", "email"));
                    """#)
        }
        try queue.close()
        var items = [("a", "Alpha", "one"), ("b", "Beta", "two")].map {
            (guid: Optional($0.0), title: $0.1, description: $0.2)
        }
        #expect(try fixture.archive(rss(items)).new == 2)
        #expect(try fixture.value("SELECT count(*) FROM items WHERE rowid = id") == "2")
        items[0].description = "one, revised"
        let again = try fixture.archive(rss(items))
        #expect(again.changed == 1 && again.unchanged == 1 && again.new == 0)
        #expect(
            try fixture.rows("SELECT guid, summary FROM items ORDER BY guid") == [["a", "one, revised"], ["b", "two"]])
    }
}
