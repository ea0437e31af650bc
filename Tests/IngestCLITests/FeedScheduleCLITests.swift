import Foundation
import GRDB
import NIOHTTP1
import LoopbackHTTPServer
import Testing

/// `ingest feed --due` from a cron job (issue 25): every fetch recorded on the
/// feed's row, the next fetch by the server's and the feed's word, and only what
/// is due fetched — against a real server on 127.0.0.1.
@Suite("ingest feed --due: scheduling a cron job can trust")
struct FeedScheduleCLITests {
    let server: LoopbackHTTPServer
    let sandbox: Sandbox

    init() throws {
        server = try LoopbackHTTPServer()
        sandbox = try Sandbox()
    }

    /// Changes the archive as another program (or a person) would.
    func update(_ sql: String) throws {
        try DatabaseQueue(path: sandbox.path("feeds.db")).write { try $0.execute(sql: sql) }
    }

    /// Seconds from the row's `last_fetched` to its `next_fetch`.
    func wait(_ url: String) throws -> Double? {
        let row = try sandbox.rows(
            "feeds.db", "SELECT unixepoch(next_fetch) - unixepoch(last_fetched) FROM feeds WHERE source = '\(url)'")
        guard let value = row.first?.first, let text = value else { return nil }
        return Double(text)
    }

    @Test(
        "max-age, <ttl> and the default give each feed its next fetch; --due fetches only the due ones and says how many were not"
    )
    func dueOnly() throws {
        server.route("/cached.xml", .feed(feedText(threeItems), headers: [("Cache-Control", "max-age=7200")]))
        let ttl =
            #"<rss version="2.0"><channel><title>T</title><ttl>180</ttl><item><guid>a</guid></item></channel></rss>"#
        server.route("/ttl.xml", .feed(ttl))
        server.route("/plain.xml", .feed(feedText(threeItems)))
        let urls = ["/cached.xml", "/ttl.xml", "/plain.xml"].map(server.url)

        let first = try sandbox.run(["feed"] + urls + ["--due"])
        #expect(first.status == 0, "\(first)")
        #expect(try wait(urls[0]) == 7200)
        #expect(try wait(urls[1]) == 10800)
        #expect(try wait(urls[2]) == 3600)
        #expect(try sandbox.rows("feeds.db", "SELECT ttl FROM feeds WHERE ttl IS NOT NULL") == [["180"]])

        // Right after: nothing is due. Then one is made due by hand.
        let second = try sandbox.run(["feed"] + urls + ["--due", "-v", "--report", "report.json"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stderr.contains("3 sources: 0 new, 0 changed, 0 unchanged items; 3 not due"), "\(second.stderr)")
        #expect(second.stderr.contains("\(urls[1]): not due until "), "\(second.stderr)")
        #expect(server.requests("/plain.xml").count == 1)
        let report = try JSONSerialization.jsonObject(with: try sandbox.contents("report.json")) as? [String: Any]
        #expect((report?["notDue"] as? [String])?.sorted() == urls.sorted())

        try update("UPDATE feeds SET next_fetch = '2000-01-01T00:00:00Z' WHERE source = '\(urls[2])'")
        let third = try sandbox.run(["feed"] + urls + ["--due", "-v"])
        #expect(third.status == 0, "\(third)")
        #expect(third.stderr.contains("3 sources: 0 new, 0 changed, 3 unchanged items; 2 not due"), "\(third.stderr)")
        #expect(server.requests("/plain.xml").count == 2)
        #expect(server.requests("/cached.xml").count == 1)

        // Without --due every source is fetched, as always.
        #expect(try sandbox.run(["feed"] + urls).status == 0)
        #expect(server.requests("/cached.xml").count == 2)
    }

    @Test("a 304 leaves its trace: last_fetched, last_status 304, no failures, the next fetch by its Cache-Control")
    func notModifiedRecorded() throws {
        var route = LoopbackHTTPServer.Route.feed(
            feedText(threeItems), headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=600")])
        route.notModifiedForETag = "\"v1\""
        server.route("/feed.xml", route)
        let url = server.url("/feed.xml")
        #expect(try sandbox.run(["feed", url]).status == 0)
        try update("UPDATE feeds SET last_fetched = '2000-01-01T00:00:00Z', failures = 4")

        let second = try sandbox.run(["feed", url])
        #expect(second.status == 0, "\(second)")
        let row = try sandbox.rows(
            "feeds.db", "SELECT last_status, failures, last_error, last_fetched > '2020' FROM feeds")
        #expect(row == [["304", "0", nil, "1"]])
        #expect(try wait(url) == 600)
    }

    @Test("failures back off, Retry-After is honoured, a success resets the count")
    func failures() throws {
        server.route(
            "/busy.xml", LoopbackHTTPServer.Route(status: .serviceUnavailable, headers: [("Retry-After", "5400")]))
        server.route("/broken.xml", LoopbackHTTPServer.Route(status: .internalServerError))
        let busy = server.url("/busy.xml"), broken = server.url("/broken.xml")
        #expect(try sandbox.run(["feed", busy, broken]).status == 75)
        #expect(try wait(busy) == 5400)
        #expect(try wait(broken) == 900)
        #expect(try sandbox.run(["feed", broken]).status == 75)
        #expect(try wait(broken) == 1800)
        #expect(
            try sandbox.rows(
                "feeds.db", "SELECT failures, last_status, last_error FROM feeds WHERE source = '\(broken)'")
                == [["2", "500", "HTTP 500 Internal Server Error"]])

        server.route("/broken.xml", .feed(feedText(threeItems)))
        #expect(try sandbox.run(["feed", broken]).status == 0)
        #expect(
            try sandbox.rows(
                "feeds.db", "SELECT failures, last_status, last_error FROM feeds WHERE source = '\(broken)'")
                == [["0", "200", nil]])
        #expect(try wait(broken) == 3600)
    }

    @Test("--due wants an archive: with --to ndjson it is a usage error (64)")
    func dueNeedsAnArchive() throws {
        let result = try sandbox.run(["feed", server.url("/x.xml"), "--to", "ndjson", "--due"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--due"), "\(result)")
    }
}
