import Foundation
import IngestCore
import NIOHTTP1
import LoopbackHTTPServer
import Testing

/// A well-formed RSS feed whose first item's description is a CDATA section of
/// `bytes` bytes — past libxml2's limits, which its recovering mode stops at — and
/// a second item after it.
func feedWithHugeCDATA(bytes: Int) -> String {
    """
    <?xml version="1.0" encoding="utf-8"?>
    <rss version="2.0"><channel><title>Big</title><link>https://example.org/</link>
    <item><guid>big</guid><title>Big one</title><description><![CDATA[\(String(repeating: "x", count: bytes))]]></description></item>
    <item><guid>after</guid><title>After it</title></item>
    </channel></rss>
    """
}

/// A feed with a bare `&`: not well-formed, read in recovering mode.
let illFormedFeed = """
    <rss version="2.0"><channel><title>Tom & Jerry</title><link>https://example.org/</link>
    <item><guid>one</guid><title>One</title></item><item><guid>two</guid><title>Two</title></item>
    </channel></rss>
    """

/// Billion laughs in a feed's title.
let billionLaughsFeed = """
    <?xml version="1.0"?>
    <!DOCTYPE rss [
    <!ENTITY lol "lol">
    <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
    <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
    <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
    <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
    <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
    <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
    <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
    <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
    <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
    ]>
    <rss version="2.0"><channel><title>&lol9;</title><item><guid>a</guid><title>A</title></item></channel></rss>
    """

/// The lines of an NDJSON output.
private func lines(_ output: Data) -> [Substring] {
    String(decoding: output, as: UTF8.self).split(separator: "\n")
}

/// `ingest feed` reads standard input and HTTP bodies as it reads files — strictly
/// first, recovering only for ill-formed XML — and says what is wrong with a bad
/// body in words and the right exit status (issue 27, items 5 and 10). Beside the
/// HTTP suite, whose server and sandbox they use.
extension FeedHTTPTests {
    /// A route sending `body` as `Content-Encoding: gzip`.
    private func gzipRoute(_ body: [UInt8]) -> LoopbackHTTPServer.Route {
        .init(headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "gzip")], body: body)
    }

    // MARK: - Item 5: strict first, everywhere

    @Test("an 11 MB CDATA description and a second item over standard input: both items, exit 0, not recovered")
    func hugeCDATAOverStandardInput() throws {
        let result = try sandbox.run(
            ["feed", "-", "--to", "ndjson", "--out", "-", "-v"],
            stdin: Data(feedWithHugeCDATA(bytes: 11 << 20).utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let items = lines(result.stdout)
        #expect(items.count == 2)
        #expect((items.first?.utf8.count ?? 0) > 11 << 20)
        #expect(items.last?.contains("After it") == true)
        #expect(!result.stderr.contains("recovering"), "\(result.stderr)")
    }

    @Test("an 11 MB CDATA description and a second item over HTTP: both items archived, well-formed")
    func hugeCDATAOverHTTP() throws {
        server.route("/big.xml", .feed(feedWithHugeCDATA(bytes: 11 << 20)))
        let result = try sandbox.run(["feed", server.url("/big.xml"), "-v"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("recovering"), "\(result.stderr)")
        #expect(
            try sandbox.rows("feeds.db", "SELECT count(*), sum(length(summary) > 11000000) FROM items") == [["2", "1"]])
        #expect(try sandbox.rows("feeds.db", "SELECT well_formed, first_error FROM feeds") == [["1", nil]])
    }

    @Test("an ill-formed feed over standard input and over HTTP is still read in recovering mode, each item once")
    func illFormedStillRecovers() throws {
        let piped = try sandbox.run(
            ["feed", "-", "--to", "ndjson", "--out", "-", "-v"], stdin: Data(illFormedFeed.utf8))
        #expect(piped.status == 0, "\(piped)")
        #expect(lines(piped.stdout).count == 2)
        #expect(piped.stderr.contains("recovering mode"), "\(piped)")

        server.route("/bad.xml", .feed(illFormedFeed))
        let fetched = try sandbox.run(["feed", server.url("/bad.xml"), "-v"])
        #expect(fetched.status == 0, "\(fetched)")
        #expect(fetched.stderr.contains("recovering mode"), "\(fetched)")
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["2"]])
        #expect(try sandbox.rows("feeds.db", "SELECT well_formed FROM feeds") == [["0"]])
    }

    @Test("an ill-formed feed whose error comes after items were written: each item once, over stdin and HTTP")
    func recoveredAfterItems() throws {
        let many = (0..<600).map { "<item><guid>g\($0)</guid><title>T\($0)</title></item>" }.joined()
        let text =
            "<rss version=\"2.0\"><channel><title>T</title>\(many)<item><title>A & B</title></item></channel></rss>"
        let piped = try sandbox.run(["feed", "-", "--to", "ndjson", "--out", "-"], stdin: Data(text.utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(lines(piped.stdout).count == 601)
        server.route("/late.xml", .feed(text))
        let fetched = try sandbox.run(["feed", server.url("/late.xml"), "--to", "ndjson", "--out", "-"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(lines(fetched.stdout).count == 601)
        #expect(Set(lines(fetched.stdout)).count == 601)
    }

    @Test(
        "a 100 MB ill-formed body over HTTP, read strictly then replayed from the spool: peak memory stays flat",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time measures peak memory"))
    func largeBodyReplayedFlat() throws {
        var body = Array(#"<?xml version="1.0"?><rss version="2.0"><channel><title>Many</title>"#.utf8)
        let text = String(repeating: "text ", count: 200)
        for index in 0..<100_000 {
            body += Array(
                "<item><guid>g\(index)</guid><title>Item \(index)</title><description>\(text)</description></item>".utf8
            )
        }
        body += Array("<item><title>A & B</title></item></channel></rss>".utf8)
        server.route("/many.xml", .init(headers: [("Content-Type", "application/rss+xml")], body: body))
        let binary = try Locations.requireIngest()
        let result = try sandbox.run(
            ["-f", "%M", binary.path, "feed", server.url("/many.xml"), "--to", "ndjson", "--out", "many.ndjson", "-v"],
            executable: URL(fileURLWithPath: "/usr/bin/time"))
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("recovering mode"), "\(result)")
        let peakKB = try #require(
            result.stderrLines.last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }, "\(result)")
        // The body is 100 MB; a pipe that kept the chunks it had passed on held some 65 MB more.
        #expect(peakKB < 90 << 10, "peak \(peakKB) KB")
        #expect(lines(try sandbox.contents("many.ndjson")).count == 100_001)
    }

    @Test("billion laughs over standard input, HTTP and a file: exit 65 naming the entity expansion, nothing stored")
    func billionLaughs() throws {
        let piped = try sandbox.run(["feed", "-", "--to", "ndjson", "--out", "-"], stdin: Data(billionLaughsFeed.utf8))
        #expect(piped.status == 65, "\(piped)")
        #expect(piped.stderr.contains("amplification"), "\(piped)")
        #expect(piped.stdout.isEmpty)

        server.route("/lol.xml", .feed(billionLaughsFeed))
        let fetched = try sandbox.run(["feed", server.url("/lol.xml")])
        #expect(fetched.status == 65, "\(fetched)")
        #expect(fetched.stderr.contains("amplification"), "\(fetched)")
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["0"]])

        try sandbox.write("lol.rss", billionLaughsFeed)
        let file = try sandbox.run(["feed", "lol.rss", "--to", "ndjson", "--out", "-"])
        #expect(file.status == 65, "\(file)")
        #expect(file.stderr.contains("amplification"), "\(file)")
    }

    // MARK: - Item 10: exit statuses and words

    @Test("a 304 to a request that sent no validators: exit 75, saying so, nothing stored")
    func notModifiedUnasked() throws {
        server.route("/304.xml", .init(status: .notModified))
        let result = try sandbox.run(["feed", server.url("/304.xml")])
        #expect(result.status == 75, "\(result)")
        #expect(result.stderr.contains("no validators"), "\(result)")
        #expect(try sandbox.rows("feeds.db", "SELECT last_status, last_error IS NOT NULL FROM feeds") == [["304", "1"]])
    }

    @Test(
        "a bad gzip body sent with Content-Encoding: gzip — a bomb, garbage — is 65, in words naming what is wrong",
        arguments: [true, false])
    func badGzip(bomb: Bool) throws {
        let body =
            bomb
            ? Gzip.compress(
                prefix: Array("<rss version=\"2.0\"><channel><title>T</title>".utf8),
                repeating: Array(String(repeating: "<x/>", count: 1 << 14).utf8), count: 1 << 9,
                suffix: Array("</channel></rss>".utf8))
            : [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03] + Array(repeating: 0xFF, count: 64)
        server.route("/bad.xml.gz", gzipRoute(body))
        let result = try sandbox.run(["feed", server.url("/bad.xml.gz")])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(bomb ? "more than 100 times its size" : "corrupt gzip stream"), "\(result)")
    }

    @Test("a gzip body of two members is read whole; one without Content-Encoding is decompressed as a file is")
    func gzipMembersAndSniffed() throws {
        let text = feedText(threeItems)
        let half = text.index(text.startIndex, offsetBy: text.count / 2)
        let twoMembers = Gzip.compress(Array(text[..<half].utf8)) + Gzip.compress(Array(text[half...].utf8))
        server.route("/two.xml", gzipRoute(twoMembers))
        let two = try sandbox.run(["feed", server.url("/two.xml"), "--to", "ndjson", "--out", "-"])
        #expect(two.status == 0, "\(two)")
        #expect(lines(two.stdout).count == 3)

        server.route(
            "/plain.xml",
            .init(
                headers: [("Content-Type", "application/rss+xml")],
                body: Gzip.compress(Array(text.utf8))))
        let sniffed = try sandbox.run(["feed", server.url("/plain.xml"), "--to", "ndjson", "--out", "-"])
        #expect(sniffed.status == 0, "\(sniffed)")
        #expect(lines(sniffed.stdout).count == 3)
    }

    @Test("a body in a Content-Encoding ingest does not read (br): exit 65 naming it")
    func unreadEncoding() throws {
        server.route(
            "/br.xml",
            .init(
                headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "br")],
                body: Array("not really brotli".utf8)))
        let result = try sandbox.run(["feed", server.url("/br.xml")])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("encoded as \"br\", which ingest does not read"), "\(result)")
    }

    @Test("a body cut short without Content-Length is read as not well-formed, and said to be")
    func cutWithoutLength() throws {
        let many = (0..<40).map { ("g\($0)", "Item \($0)", String(repeating: "text ", count: 50)) }
        var cut = LoopbackHTTPServer.Route.feed(feedText(many))
        cut.closeDelimited = true
        cut.cutAfter = cut.body.count * 2 / 3
        server.route("/cut.xml", cut)
        let result = try sandbox.run(["feed", server.url("/cut.xml"), "-v"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("not well-formed"), "\(result)")
        #expect(result.stderr.contains("the input ends inside the document"), "\(result)")
        let stored = try sandbox.rows(
            "feeds.db", "SELECT well_formed, first_error LIKE '%the input ends inside the document%' FROM feeds")
        #expect(stored == [["0", "1"]])
    }

    @Test("an --out database holding an unrelated items table: exit 73, as for an unrelated feeds table")
    func unrelatedItemsTable() throws {
        try sandbox.write("news.rss", feedText(threeItems))
        try sandbox.write("items.json", #"{"items":[{"a":1}]}"#)
        let made = try sandbox.run(["items.json", "--out", "other.db"])
        #expect(made.status == 0, "\(made)")
        let result = try sandbox.run(["feed", "news.rss", "--out", "other.db"])
        #expect(result.status == 73, "\(result)")
        #expect(result.stderr.contains("not a feed archive"), "\(result)")
    }

    @Test("a feed nested too deep names ingest feed's fixed limit, not an option it rejects")
    func depthWords() throws {
        let deep =
            "<rss version=\"2.0\"><channel><item><description>" + String(repeating: "<x>", count: 3000)
            + String(repeating: "</x>", count: 3000) + "</description></item></channel></rss>"
        try sandbox.write("deep.rss", deep)
        let result = try sandbox.run(["feed", "deep.rss", "--to", "ndjson", "--out", "-"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("nested deeper than"), "\(result)")
        #expect(!result.stderr.contains("--max-depth"), "\(result)")
        #expect(try sandbox.run(["feed", "deep.rss", "--max-depth", "5000"]).status == 64)
    }

    @Test("a feed on standard input claiming a URL source's link never touches that source's rows")
    func standardInputKey() throws {
        let url = server.url("/feed.xml")
        server.route("/feed.xml", .feed(feedText(threeItems)))
        #expect(try sandbox.run(["feed", url]).status == 0)
        let impostor = """
            <rss version="2.0"><channel><title>Impostor</title><link>\(url)</link>
            <item><guid>a</guid><title>Overwritten</title></item></channel></rss>
            """
        let piped = try sandbox.run(["feed", "-"], stdin: Data(impostor.utf8))
        #expect(piped.status == 0, "\(piped)")
        #expect(
            try sandbox.rows("feeds.db", "SELECT source, title FROM feeds ORDER BY id")
                .sorted { ($0[0] ?? "") < ($1[0] ?? "") } == [[url, "Test feed"], ["stdin:\(url)", "Impostor"]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items WHERE title = 'Overwritten'") == [["1"]])
        #expect(
            try sandbox.rows(
                "feeds.db",
                "SELECT title FROM items WHERE feed_id = (SELECT id FROM feeds WHERE source = '\(url)') ORDER BY title")
                == [["Alpha"], ["Beta"], ["Gamma"]])
    }
}
