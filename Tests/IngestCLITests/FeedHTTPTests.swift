import Foundation
import IngestCore
import IngestFeeds
import NIOCore
import NIOHTTP1
import LoopbackHTTPServer
import Testing

/// `ingest feed` against a real HTTP server on 127.0.0.1 (``LoopbackHTTPServer``).
@Suite("ingest feed over HTTP: conditional GET, redirects, gzip, timeouts, failures")
struct FeedHTTPTests {
    let server: LoopbackHTTPServer
    let sandbox: Sandbox

    init() throws {
        server = try LoopbackHTTPServer()
        sandbox = try Sandbox()
    }

    @Test(
        "200 then 304 by ETag: the second run writes only the fetch's columns and succeeds; the User-Agent names ingest"
    )
    func notModifiedByETag() throws {
        var route = LoopbackHTTPServer.Route.feed(feedText(threeItems), headers: [("ETag", "\"v1\"")])
        route.notModifiedForETag = "\"v1\""
        server.route("/feed.xml", route)
        let first = try sandbox.run(["feed", server.url("/feed.xml")])
        #expect(first.status == 0, "\(first)")
        #expect(try sandbox.rows("feeds.db", "SELECT etag, last_status FROM feeds") == [["\"v1\"", "200"]])
        let before = try sandbox.rows("feeds.db", "SELECT id, title, etag, last_fetched, next_fetch FROM feeds")
        let items = try sandbox.rows("feeds.db", "SELECT * FROM items")

        let second = try sandbox.run(["feed", server.url("/feed.xml"), "-v"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stderr.contains("not modified"))
        #expect(try sandbox.rows("feeds.db", "SELECT * FROM items") == items)
        let earlier = try #require(before.first)
        let after = try #require(
            try sandbox.rows(
                "feeds.db", "SELECT id, title, etag, last_fetched, next_fetch, last_status, failures FROM feeds"
            ).first)
        #expect(after.prefix(3) == earlier.prefix(3), "the feed as it was")
        #expect(after[5] == "304" && after[6] == "0", "\(after)")
        #expect((after[3] ?? "") >= (earlier[3] ?? ""), "last_fetched moves on")
        let requests = server.requests("/feed.xml")
        #expect(requests.count == 2)
        #expect(requests[0].header("If-None-Match") == nil)
        #expect(requests[1].header("If-None-Match") == "\"v1\"")
        #expect(requests[0].header("User-Agent")?.hasPrefix("ingest/") == true)
        #expect(requests[0].header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test("304 by Last-Modified")
    func notModifiedBySince() throws {
        let since = "Mon, 02 Nov 2026 10:00:00 GMT"
        var route = LoopbackHTTPServer.Route.feed(feedText(threeItems), headers: [("Last-Modified", since)])
        route.notModifiedSince = since
        server.route("/feed.xml", route)
        #expect(try sandbox.run(["feed", server.url("/feed.xml")]).status == 0)
        let items = try sandbox.rows("feeds.db", "SELECT * FROM items")
        let second = try sandbox.run(["feed", server.url("/feed.xml"), "-v"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stderrLines.last?.contains("1 not modified") == true, "\(second)")
        #expect(server.requests("/feed.xml").last?.header("If-Modified-Since") == since)
        #expect(try sandbox.rows("feeds.db", "SELECT * FROM items") == items)
        #expect(try sandbox.rows("feeds.db", "SELECT last_modified, last_status FROM feeds") == [[since, "304"]])
    }

    @Test("a changed feed on the second fetch: 1 changed, 1 new")
    func changedOverHTTP() throws {
        server.route("/feed.xml", .feed(feedText(threeItems)))
        #expect(try sandbox.run(["feed", server.url("/feed.xml")]).status == 0)
        var edited = threeItems
        edited[0].2 = "one, revised"
        server.route("/feed.xml", .feed(feedText(edited + [("d", "Delta", "four")])))
        let result = try sandbox.run(["feed", server.url("/feed.xml"), "-v"])
        #expect(result.stderrLines.contains { $0.hasSuffix("/feed.xml: 1 new, 1 changed, 2 unchanged") }, "\(result)")
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["4"]])
    }

    @Test("301 moves the stored URL, and the next run asks the new one; 302 does not")
    func redirects() throws {
        server.route("/old.xml", .redirect(.movedPermanently, to: "/new.xml"))
        server.route("/new.xml", .feed(feedText(threeItems)))
        server.route("/elsewhere.xml", .redirect(.found, to: server.url("/today.xml")))
        server.route("/today.xml", .feed(feedText([("t", "Today", "x")])))
        let first = try sandbox.run(["feed", server.url("/old.xml"), server.url("/elsewhere.xml")])
        #expect(first.status == 0, "\(first)")
        #expect(
            try sandbox.rows("feeds.db", "SELECT source, url FROM feeds ORDER BY source") == [
                [server.url("/elsewhere.xml"), server.url("/elsewhere.xml")],
                [server.url("/old.xml"), server.url("/new.xml")]
            ])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["4"]])

        let second = try sandbox.run(["feed", server.url("/old.xml"), server.url("/elsewhere.xml")])
        #expect(second.status == 0, "\(second)")
        #expect(server.requests("/old.xml").count == 1)
        #expect(server.requests("/new.xml").count == 2)
        #expect(server.requests("/elsewhere.xml").count == 2)
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM feeds") == [["2"]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["4"]])
        // Named by its new address, it is the same feed.
        #expect(try sandbox.run(["feed", server.url("/new.xml")]).status == 0)
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM feeds") == [["2"]])
    }

    @Test("404 is a lasting failure (66), recorded on the feed's row; the other URL is stored")
    func notFound() throws {
        server.route("/feed.xml", .feed(feedText(threeItems)))
        let result = try sandbox.run(["feed", server.url("/gone.xml"), server.url("/feed.xml")])
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("/gone.xml: HTTP 404 Not Found"))
        #expect(
            try sandbox.rows("feeds.db", "SELECT last_status, last_error FROM feeds WHERE source LIKE '%gone.xml'")
                == [["404", "HTTP 404 Not Found"]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
    }

    @Test("a gzip-encoded body is read")
    func gzip() throws {
        let body = Gzip.compress(Array(feedText(threeItems).utf8))
        server.route(
            "/feed.xml",
            .init(
                headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "gzip")],
                body: body))
        let result = try sandbox.run(["feed", server.url("/feed.xml")])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
    }

    @Test("a slow server times out: exit 75, soon, and the other source is stored")
    func slowServer() throws {
        var slow = LoopbackHTTPServer.Route.feed(feedText(threeItems))
        slow.delay = .seconds(20)
        server.route("/slow.xml", slow)
        server.route("/feed.xml", .feed(feedText([("x", "X", "x")])))
        let started = Date()
        let result = try sandbox.run(["feed", server.url("/slow.xml"), server.url("/feed.xml"), "--timeout", "1"])
        #expect(result.status == 75, "\(result)")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.stderr.contains("timed out"))
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["1"]])
    }

    @Test("a body that trickles on past ten timeouts is cut off: exit 75")
    func trickle() throws {
        var trickle = LoopbackHTTPServer.Route.feed(feedText(threeItems))
        trickle.piece = 16
        trickle.pause = .milliseconds(300)
        server.route("/trickle.xml", trickle)
        let started = Date()
        let result = try sandbox.run(["feed", server.url("/trickle.xml"), "--timeout", "0.5"])
        #expect(result.status == 75, "\(result)")
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["0"]])
    }

    @Test("a server that closes mid-body: exit 75, nothing of that feed stored")
    func closedMidBody() throws {
        let many = (0..<40).map { ("g\($0)", "Item \($0)", String(repeating: "text ", count: 50)) }
        var cut = LoopbackHTTPServer.Route.feed(feedText(many))
        cut.cutAfter = cut.body.count * 2 / 3
        server.route("/cut.xml", cut)
        let result = try sandbox.run(["feed", server.url("/cut.xml")])
        #expect(result.status == 75, "\(result)")
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["0"]])
        #expect(try sandbox.rows("feeds.db", "SELECT last_error IS NOT NULL FROM feeds") == [["1"]])
    }

    @Test("several URLs, one failing temporarily (503): 75, the others stored; at most --jobs at once")
    func severalWithOneFailing() throws {
        for index in 0..<5 {
            var route = LoopbackHTTPServer.Route.feed(feedText([("i\(index)", "Item \(index)", "x")]))
            route.delay = .milliseconds(200)
            server.route("/f\(index).xml", route)
        }
        server.route("/down.xml", .init(status: .serviceUnavailable))
        let urls = (0..<5).map { server.url("/f\($0).xml") } + [server.url("/down.xml")]
        let result = try sandbox.run(["feed"] + urls + ["--jobs", "2"])
        #expect(result.status == 75, "\(result)")
        #expect(result.stderr.contains("/down.xml: HTTP 503"))
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["5"]])
        #expect(server.mostConcurrent <= 2)
        #expect(server.mostConcurrent >= 1)
    }

    @Test("--per-host: one host is asked for one URL at a time, whatever --jobs allows")
    func perHost() throws {
        for index in 0..<4 {
            var route = LoopbackHTTPServer.Route.feed(feedText([("i\(index)", "Item \(index)", "x")]))
            route.delay = .milliseconds(150)
            server.route("/h\(index).xml", route)
        }
        let urls = (0..<4).map { server.url("/h\($0).xml") }
        let result = try sandbox.run(["feed"] + urls + ["--jobs", "4", "--per-host", "1"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["4"]])
        #expect(server.mostConcurrent == 1)
        #expect(server.requests.map(\.path) == (0..<4).map { "/h\($0).xml" }, "in the order given")
    }

    @Test("a large feed streams through (more items than wait at once)")
    func largeFeed() throws {
        let items = (0..<3_000).map { ("id-\($0)", "Item \($0)", "Description \($0)") }
        var route = LoopbackHTTPServer.Route.feed(feedText(items))
        route.piece = 64 << 10
        server.route("/big.xml", route)
        server.route("/small.xml", .feed(feedText(threeItems)))
        let result = try sandbox.run(["feed", server.url("/big.xml"), server.url("/small.xml"), "-v"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3003"]])
        let again = try sandbox.run(["feed", server.url("/big.xml"), "-v"])
        #expect(again.stderrLines.contains { $0.hasSuffix("/big.xml: 0 new, 0 changed, 3000 unchanged") }, "\(again)")
    }

    @Test("the Content-Type charset overrides the XML declaration (RFC 7303)")
    func charset() throws {
        // Declared UTF-8, but the bytes are windows-1252, as the server says.
        var body = Array(#"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Caf"#.utf8)
        body += [0xE9, 0x20, 0x92, 0x73] + Array("</title></channel></rss>".utf8)
        server.route("/latin.xml", .init(headers: [("Content-Type", "text/xml; charset=windows-1252")], body: body))
        let result = try sandbox.run(["feed", server.url("/latin.xml"), "--to", "json", "--out", "-"])
        #expect(result.status == 0, "\(result)")
        let json = try JSONValue(parsing: String(decoding: result.stdout, as: UTF8.self))
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(members.first { $0.0 == "title" }?.1 == .string("Café \u{2019}s"))
    }

    @Test("--to json over HTTP equals the library's reading of the same bytes")
    func jsonOverHTTP() throws {
        let podcast = Locations.packageRoot.appendingPathComponent("Samples/podcast.rss")
        server.route(
            "/podcast.rss",
            .init(
                headers: [("Content-Type", "application/rss+xml")],
                body: Array(try Data(contentsOf: podcast))))
        let result = try sandbox.run(["feed", server.url("/podcast.rss"), "--to", "json", "--out", "-"])
        #expect(result.status == 0, "\(result)")
        let expected = try Feed(contentsOf: podcast, options: .init(baseURL: URL(string: server.url("/podcast.rss"))))
        #expect(try JSONValue(parsing: String(decoding: result.stdout, as: UTF8.self)) == expected.gofeedJSONValue)
    }

    @Test("a URL whose port is past 65535 fails that source (65) and says why; the other source is stored")
    func portOutOfRange() throws {
        server.route("/feed.xml", .feed(feedText(threeItems)))
        let bad = "http://127.0.0.1:99999/feed.xml"
        let result = try sandbox.run(["feed", bad, server.url("/feed.xml")])
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderrLines.contains("ingest: \(bad): invalid URL: port 99999 is out of range 1-65535"), "\(result)")
        #expect(
            try sandbox.rows("feeds.db", "SELECT last_status, last_error FROM feeds WHERE source = '\(bad)'")
                == [[nil, "invalid URL: port 99999 is out of range 1-65535"]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
    }

    @Test(
        "a redirect to a port past 65535, or to no host, fails that source (65) and says why; the other source is stored",
        arguments: [("http://127.0.0.1:99999/x", "port 99999 is out of range 1-65535"), ("http:///x", "it has no host")]
    )
    func redirectToInvalidURL(location: String, problem: String) throws {
        server.route("/moved.xml", .redirect(.movedPermanently, to: location))
        server.route("/feed.xml", .feed(feedText(threeItems)))
        let result = try sandbox.run(["feed", server.url("/moved.xml"), server.url("/feed.xml")])
        #expect(result.status == 65, "\(result)")
        let message = "HTTP 301 redirect to an invalid URL \(location): \(problem)"
        #expect(result.stderrLines.contains("ingest: \(server.url("/moved.xml")): \(message)"), "\(result)")
        #expect(
            try sandbox.rows(
                "feeds.db", "SELECT last_status, last_error FROM feeds WHERE source = '\(server.url("/moved.xml"))'")
                == [["301", message]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
    }

    @Test("over HTTP: a failure names the URL once, --report lists each URL, -v counts the ill-formed feed")
    func sourcesEdgesOverHTTP() throws {
        server.route("/page.html", .feed("<html><body>no feed here</body></html>", type: "text/html"))
        server.route(
            "/broken.json",
            .feed(
                "{\"version\": \"https://jsonfeed.org/version/1.1\",\n \"title\": }",
                type: "application/feed+json"))
        server.route("/bad.xml", .feed(FeedSourcesCLITests.illFormed))
        let urls = ["/page.html", "/broken.json", "/bad.xml", "/gone.xml"].map(server.url)
        let result = try sandbox.run(["feed"] + urls + ["-v", "--report", "run.json"])
        #expect(result.status == 65, "\(result)")
        for url in urls.dropLast(2) {
            let lines = result.stderrLines.filter { $0.contains(url) }
            #expect(lines.count == 1 && lines[0].components(separatedBy: url).count == 2, "\(url): \(result)")
        }
        #expect(result.stderrLines.contains { $0.hasPrefix("ingest: \(urls[1]):2:") }, "\(result)")
        #expect(result.stderrLines.contains("ingest: \(urls[3]): HTTP 404 Not Found"), "\(result)")
        #expect(
            result.stderrLines.contains("ingest: 1 of 1 feed was not well-formed XML and was read in recovering mode"),
            "\(result)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: sandbox.contents("run.json")) as? [String: Any])
        let sources = try #require(report["sources"] as? [[String: Any]])
        #expect(sources.map { $0["source"] as? String } == urls)
        #expect(sources.map { $0["exitStatus"] as? Int } == [65, 65, 0, 66])
        #expect(sources[3]["error"] as? String == "HTTP 404 Not Found")
        #expect(sources[2]["wellFormed"] as? Bool == false)
        // A URL keeps its row when it fails: the next run retries it.
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM feeds") == [["4"]])
    }

    @Test("a connection refused is temporary (75), says so, and fails at once, not at the timeout")
    func refused() throws {
        // A server's port, once it is closed, refuses.
        let gone = try LoopbackHTTPServer()
        let url = gone.url("/feed.xml")
        try gone.stop()
        let started = Date()
        let result = try sandbox.run(["feed", url, url + "?again", "--timeout", "60"])
        #expect(result.status == 75, "\(result)")
        #expect(result.stderr.contains("\(url): connection refused (temporary"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 30, "the connection was retried until the timeout")
    }
}
