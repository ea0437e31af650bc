import Foundation
import PostgresTestServer
import LoopbackHTTPServer
import Testing

/// `ingest feed … --to postgres --db URI`, run as a user runs it — the built binary —
/// against the real PostgreSQL the test support starts: the archive `--to db` keeps,
/// in PostgreSQL, with the same re-run guarantees.
@Suite(
    "ingest feed --to postgres: the archive in a real PostgreSQL",
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct FeedPostgresCLITests {
    /// The archive's tables and how their rows are ordered.
    static let tables: [(name: String, order: String)] = [
        ("authors", "item_id, name, email"), ("categories", "item_id, name"), ("enclosures", "item_id, url"),
        ("feeds", "id"), ("items", "id"), ("chapters", "item_id, start"), ("transcripts", "item_id, url"),
        ("persons", "item_id, name, role"), ("funding", "item_id, url"), ("alternate_enclosures", "item_id, url"),
        ("soundbites", "item_id, start_seconds, duration_seconds"), ("show_persons", "feed_id, name, role"),
        ("show_funding", "feed_id, url")
    ]
    /// Columns that say when a run happened: a second run, or another output, writes its own time.
    static let runTimes: Set<String> = ["last_fetched", "next_fetch", "first_seen", "last_changed"]

    /// Every row of the archive but the fetch times, as text: what a re-run must not change.
    static func dump(_ server: TestPostgresServer, _ database: String) throws -> [[String?]] {
        try server.psql(
            "SELECT id::text, source, url, title, etag, last_modified, last_status::text, last_error FROM feeds ORDER BY id",
            database: database)
            + server.psql(
                "SELECT id::text, feed_id::text, guid, title, summary, content_hash::text, first_seen::text, last_changed::text FROM items ORDER BY id",
                database: database)
            + server.psql("SELECT * FROM enclosures ORDER BY item_id, url", database: database)
            + server.psql("SELECT * FROM categories ORDER BY item_id, name", database: database)
            + server.psql("SELECT * FROM authors ORDER BY item_id, name, email", database: database)
    }

    @Test("twice: the same rows; an item changed is updated in place, one added is new; nothing duplicated")
    func reRuns() throws {
        let (server, database, uri) = try PostgresCLITests.database("feed_reruns")
        let box = try Sandbox()
        try box.write("news.rss", feedText(threeItems))
        let archive = ["feed", "news.rss", "--to", "postgres", "--db", uri, "-v"]

        let first = try box.run(archive)
        #expect(first.status == 0, "\(first)")
        #expect(first.stderrLines.contains { $0.hasSuffix("news.rss: 3 new, 0 changed, 0 unchanged") }, "\(first)")
        #expect(
            first.stderrLines.last?.contains("1 source: 3 new, 0 changed, 0 unchanged items; postgresql://") == true,
            "\(first)")
        #expect(try server.tables(in: database) == archiveTables)
        let stored = try Self.dump(server, database)

        let again = try box.run(archive)
        #expect(again.status == 0, "\(again)")
        #expect(again.stderrLines.contains { $0.hasSuffix("news.rss: 0 new, 0 changed, 3 unchanged") }, "\(again)")
        #expect(try Self.dump(server, database) == stored)
        #expect(
            try server.psql(
                "SELECT (SELECT count(*) FROM feeds), (SELECT count(*) FROM items), (SELECT count(*) FROM enclosures)",
                database: database) == [["1", "3", "3"]])

        // When item b was first seen, as an older run stored it: a change keeps it.
        try server.psql("UPDATE items SET first_seen = '2020-01-02T03:04:05Z' WHERE guid = 'b'", database: database)
        var edited = threeItems
        edited[1].2 = "two, revised"
        try box.write("news.rss", feedText(edited + [("d", "Delta", "four")]))
        let changed = try box.run(archive)
        #expect(changed.status == 0, "\(changed)")
        #expect(changed.stderrLines.contains { $0.hasSuffix("news.rss: 1 new, 1 changed, 2 unchanged") }, "\(changed)")
        #expect(
            try server.psql(
                "SELECT summary, to_char(first_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), last_changed > first_seen FROM items WHERE guid = 'b'",
                database: database) == [["two, revised", "2020-01-02 03:04:05", "t"]])
        #expect(
            try server.psql(
                "SELECT (SELECT count(*) FROM feeds), (SELECT count(*) FROM items), (SELECT count(*) FROM enclosures)",
                database: database) == [["1", "4", "4"]])
        #expect(try server.tables(in: database) == archiveTables, "no staging tables left")

        let last = try box.run(archive)
        #expect(last.stderrLines.contains { $0.hasSuffix("news.rss: 0 new, 0 changed, 4 unchanged") }, "\(last)")
    }

    @Test("the same feeds give PostgreSQL the tables, columns and values the SQLite archive gets")
    func parityWithSQLite() throws {
        let (server, database, uri) = try PostgresCLITests.database("feed_parity")
        let box = try Sandbox()
        let sources = ["podcast.rss", "news.atom", "feed.json", "feed.rss"].map {
            FeedCLITests.samples.appendingPathComponent($0).path
        }

        let postgres = try box.run(["feed"] + sources + ["--to", "postgres", "--db", uri])
        let sqlite = try box.run(["feed"] + sources + ["--out", "feeds.db"])

        #expect(postgres.status == 0, "\(postgres)")
        #expect(sqlite.status == 0, "\(sqlite)")
        #expect(try server.tables(in: database) == (try box.tables("feeds.db")))
        for (table, order) in Self.tables {
            let types = try server.psql(
                """
                SELECT column_name::text, data_type::text FROM information_schema.columns
                WHERE table_schema = 'public' AND table_name = '\(table)' ORDER BY ordinal_position
                """, database: database)
            let columns = types.map { $0[0]! }
            #expect(columns == (try box.columns("feeds.db", table: table)), "\(table)")
            let compared = types.filter { !Self.runTimes.contains($0[0]!) }
            // PostgreSQL's values in the SQLite archive's spelling: booleans as 1 and 0, instants as RFC 3339 in UTC.
            let selected = compared.map { column -> String in
                let name = "\"\(column[0]!)\""
                switch column[1]! {
                case "boolean": return "\(name)::int::text"
                case "timestamp with time zone":
                    return "to_char(\(name) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
                default: return "\(name)::text"
                }
            }
            // Ordered by the table's columns, not by the text they are selected as.
            let postgresOrder = order.split(separator: ", ").map { "\(table).\($0)" }.joined(separator: ", ")
            let postgresRows = try server.psql(
                "SELECT \(selected.joined(separator: ", ")) FROM \(table) ORDER BY \(postgresOrder)",
                database: database)
            let sqliteRows = try box.rows(
                "feeds.db",
                "SELECT \(compared.map { "\"\($0[0]!)\"" }.joined(separator: ", ")) FROM \(table) ORDER BY \(order)")
            #expect(postgresRows.count == sqliteRows.count, "\(table)")
            #expect(!postgresRows.isEmpty, "\(table) holds rows to compare")
            var differences: [String] = []
            for (row, (left, right)) in zip(postgresRows, sqliteRows).enumerated() {
                for (index, column) in compared.enumerated()
                where !PostgresCLITests.same(left[index], right[index], type: column[1]!) {
                    differences.append(
                        "\(table) row \(row + 1) \(column[0]!): PostgreSQL \(left[index] ?? "NULL"), SQLite \(right[index] ?? "NULL")"
                    )
                }
            }
            #expect(differences.isEmpty, "\(differences.prefix(10))")
        }
    }

    @Test("a source that fails later is recorded on its row; what was read of it before stays as it was")
    func failureKeepsTheStoredRow() throws {
        let (server, database, uri) = try PostgresCLITests.database("feed_failure")
        let box = try Sandbox()
        try box.write(
            "podcast.rss",
            String(
                decoding: try Data(contentsOf: FeedCLITests.samples.appendingPathComponent("podcast.rss")),
                as: UTF8.self))
        let archive = ["feed", "podcast.rss", "--to", "postgres", "--db", uri]
        try #require(try box.run(archive).status == 0)
        // Everything but the fetch's own columns, JSON and booleans included.
        let kept = """
            SELECT id::text, source, url, title, link, type, version, categories::text, extensions::text, well_formed::text,
                   updated_at::text, published_at::text FROM feeds
            """
        let before = try server.psql(kept, database: database)
        #expect(before.first?[8]?.contains("itunesExt") == true, "\(before)")

        try FileManager.default.removeItem(atPath: box.path("podcast.rss"))
        let failed = try box.run(archive)

        #expect(failed.status == 66, "\(failed)")
        #expect(try server.psql(kept, database: database) == before)
        #expect(
            try server.value("SELECT last_error IS NOT NULL AND last_status IS NULL FROM feeds", database: database)
                == "t")
        #expect(try server.value("SELECT count(*) FROM items", database: database) == "3")
    }

    @Test("over HTTP: the ETag is kept in PostgreSQL and sent back; a 304 writes only the fetch's columns")
    func conditionalGet() throws {
        let (server, database, uri) = try PostgresCLITests.database("feed_etag")
        let http = try LoopbackHTTPServer()
        let box = try Sandbox()
        var route = LoopbackHTTPServer.Route.feed(feedText(threeItems), headers: [("ETag", "\"v1\"")])
        route.notModifiedForETag = "\"v1\""
        http.route("/feed.xml", route)
        let archive = ["feed", http.url("/feed.xml"), "--to", "postgres", "--db", uri, "-v"]

        let first = try box.run(archive)
        #expect(first.status == 0, "\(first)")
        #expect(try server.psql("SELECT etag, last_status::text FROM feeds", database: database) == [["\"v1\"", "200"]])
        let stored = try Self.dump(server, database)

        let second = try box.run(archive)
        #expect(second.status == 0, "\(second)")
        #expect(second.stderr.contains("not modified"), "\(second)")
        #expect(http.requests("/feed.xml").map { $0.header("If-None-Match") } == [nil, "\"v1\""])
        #expect(
            try server.psql("SELECT etag, last_status::text, failures::text FROM feeds", database: database) == [
                ["\"v1\"", "304", "0"]
            ])
        // One feed: the dump's first row is its; the rest, the items and their children, are as they were.
        let after = try Self.dump(server, database)
        #expect(after.first?.prefix(6) == stored.first?.prefix(6))
        #expect(Array(after.dropFirst()) == Array(stored.dropFirst()))
    }

    @Test("4 processes archiving the same feeds at once: every item once, none lost, no deadlock")
    func concurrentArchivers() throws {
        let (server, database, uri) = try PostgresCLITests.database("feed_four")
        let box = try Sandbox()
        try box.write("a.rss", feedText((0..<200).map { ("a\($0)", "A \($0)", "one") }, title: "A"))
        try box.write("b.rss", feedText((0..<200).map { ("b\($0)", "B \($0)", "two") }, title: "B"))

        let runs = try box.runConcurrently(
            (0..<4).map { index in
                ["feed"] + (index % 2 == 0 ? ["a.rss", "b.rss"] : ["b.rss", "a.rss"]) + [
                    "--to", "postgres", "--db", uri
                ]
            })
        for run in runs {
            #expect(run.status == 0, "\(run)")
        }
        #expect(
            try server.psql(
                "SELECT (SELECT count(*) FROM feeds), (SELECT count(*) FROM items), (SELECT count(*) FROM enclosures)",
                database: database) == [["2", "400", "400"]])
        #expect(try server.tables(in: database) == archiveTables)
    }

    @Test("connection refused: exit 75 and one line that says so", arguments: ["socket", "tcp"])
    func refused(kind: String) throws {
        let box = try Sandbox()
        try box.write("news.rss", feedText(threeItems))
        let uri =
            kind == "socket"
            ? "postgresql:///nobody?host=\(box.directory.path)"  // no server's socket here
            : "postgresql://me@127.0.0.1:\(try unusedLoopbackPort())/nobody?sslmode=disable"

        let result = try box.run(["feed", "news.rss", "--to", "postgres", "--db", uri])

        #expect(result.status == 75, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains("cannot reach PostgreSQL at"), "\(result)")
        #expect(result.stderr.contains("Nothing was written; run again later"), "\(result)")
    }
}

/// `ingest feed --to postgres` and `--db` checked against the other options, as
/// `ingest import` checks them: no server needed.
@Suite("ingest feed --to postgres and --db: usage errors")
struct FeedPostgresOptionTests {
    @Test(
        "usage errors (64) with the import command's messages",
        arguments: [
            (["--to", "postgres"], "--to postgres needs --db"),
            (["--db", "postgresql:///db"], "--db names a PostgreSQL database: it needs --to postgres"),
            (
                ["--to", "json", "--db", "postgresql:///db"],
                "it needs --to postgres (--out names the file of --to json)"
            ),
            (["--to", "postgres", "--db", "postgresql:///db", "--out", "x.db"], "--out names a file"),
            (["--to", "postgres", "--db", "postgresql:///db", "--replace"], "an archive is updated in place"),
            (["--to", "postgres", "--db", "postgresql://host:notaport/db"], "--db: "),
            (["--to", "postgres", "--db", "postgresql://me:s3cret@localhost/db"], "PGPASSWORD")
        ])
    func usage(arguments: [String], message: String) throws {
        let box = try Sandbox()
        try box.write("news.rss", feedText(threeItems))

        let result = try box.run(["feed", "news.rss"] + arguments)

        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(!result.stderr.contains("s3cret"), "\(result)")
        #expect(try box.listing() == ["news.rss"], "nothing written")
    }

    @Test(
        "an archive made before the schedule's columns gains them on the next run; --due then skips what was just read")
    func oldArchiveMigrated() throws {
        let (server, database, uri) = try PostgresCLITests.database("feed_migrated")
        let box = try Sandbox()
        try box.write("news.rss", feedText(threeItems))
        let archive = ["feed", box.path("news.rss"), "--to", "postgres", "--db", uri]
        try #require(try box.run(archive).status == 0)
        let added = ["failures", "next_fetch", "ttl", "skip_hours", "skip_days", "update_period", "update_frequency"]
        _ = try server.psql(
            "ALTER TABLE feeds " + added.map { "DROP COLUMN \($0)" }.joined(separator: ", "), database: database)

        let due = try box.run(archive + ["--due", "-v"])
        #expect(due.status == 0, "\(due)")
        #expect(due.stderr.contains("0 new, 0 changed, 3 unchanged"), "\(due)")
        #expect(
            try server.psql("SELECT failures::text, next_fetch > last_fetched FROM feeds", database: database) == [
                ["0", "t"]
            ])
        let columns = try server.psql(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'feeds' ORDER BY ordinal_position",
            database: database
        ).compactMap(\.first).compactMap { $0 }
        #expect(Array(columns.suffix(added.count)) == added)

        let notDue = try box.run(archive + ["--due", "-v"])
        #expect(notDue.status == 0, "\(notDue)")
        #expect(notDue.stderr.contains("1 not due"), "\(notDue)")
    }
}
