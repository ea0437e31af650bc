import Foundation
import NIOHTTP1
import LoopbackHTTPServer
import Testing

/// `ingest feed https://site.example/`: a page named as a source is read for the
/// feed it advertises (issue 25, autodiscovery), against a server on 127.0.0.1.
@Suite("ingest feed on an HTML page: the feed it advertises")
struct FeedDiscoveryCLITests {
    let server: LoopbackHTTPServer
    let sandbox: Sandbox

    init() throws {
        server = try LoopbackHTTPServer()
        sandbox = try Sandbox()
    }

    static func page(_ links: String) -> LoopbackHTTPServer.Route {
        LoopbackHTTPServer.Route(
            headers: [("Content-Type", "text/html; charset=utf-8")],
            body: Array("<!DOCTYPE html><html><head><title>Site</title>\(links)</head><body>Hello</body></html>".utf8))
    }

    @Test("the first advertised feed is read and said; the next run asks the feed itself")
    func subscribes() throws {
        server.route(
            "/blog/",
            Self.page(
                """
                <link rel="alternate" type="application/atom+xml" href="feeds/atom.xml">
                <link rel="alternate" type="application/rss+xml" href="/rss.xml">
                """))
        server.route("/blog/feeds/atom.xml", .feed(feedText(threeItems)))
        let page = server.url("/blog/")
        let first = try sandbox.run(["feed", page, "-v"])
        #expect(first.status == 0, "\(first)")
        #expect(
            first.stderr.contains(
                "\(page): an HTML page; reading the first feed it advertises, \(server.url("/blog/feeds/atom.xml")) (application/atom+xml)"
            ),
            "\(first.stderr)")
        #expect(
            try sandbox.rows("feeds.db", "SELECT source, url FROM feeds") == [
                [page, server.url("/blog/feeds/atom.xml")]
            ])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
        #expect(server.requests("/rss.xml").isEmpty)

        let second = try sandbox.run(["feed", page])
        #expect(second.status == 0, "\(second)")
        #expect(server.requests("/blog/").count == 1, "the stored feed address is asked, not the page")
        #expect(server.requests("/blog/feeds/atom.xml").count == 2)
    }

    @Test("a page that advertises no feed fails that source with 65 and says why; the others are stored")
    func noFeed() throws {
        server.route("/plain/", Self.page(#"<link rel="stylesheet" href="/s.css">"#))
        server.route("/feed.xml", .feed(feedText(threeItems)))
        let result = try sandbox.run(["feed", server.url("/plain/"), server.url("/feed.xml")])
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr.contains("\(server.url("/plain/")): an HTML page that advertises no feed"), "\(result.stderr)"
        )
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
    }

    @Test("a page whose advertised feed is itself a page is not followed again")
    func onlyOnce() throws {
        server.route("/a/", Self.page(#"<link rel="alternate" type="application/rss+xml" href="/b/">"#))
        server.route("/b/", Self.page(#"<link rel="alternate" type="application/rss+xml" href="/a/">"#))
        let result = try sandbox.run(["feed", server.url("/a/")])
        #expect(result.status == 65, "\(result)")
        #expect(server.requests("/a/").count == 1 && server.requests("/b/").count == 1)
    }

    @Test(
        "--all: every feed a page advertises is a source of its own; a page without feeds and a plain feed are read as without it"
    )
    func all() throws {
        server.route(
            "/site/",
            Self.page(
                """
                <link rel="alternate" type="application/rss+xml" href="/one.xml">
                <link rel="alternate" type="application/atom+xml" href="/two.xml">
                <link rel="alternate" type="application/rss+xml" href="/one.xml">
                """))
        server.route("/one.xml", .feed(feedText([("1", "one", "")], title: "One")))
        server.route("/two.xml", .feed(feedText([("2", "two", "")], title: "Two")))
        server.route("/empty/", Self.page(""))
        server.route("/three.xml", .feed(feedText([("3", "three", "")], title: "Three")))
        let result = try sandbox.run([
            "feed", server.url("/site/"), server.url("/empty/"), server.url("/three.xml"), "--all", "-v"
        ])
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr.contains(
                "\(server.url("/site/")): an HTML page advertising 2 feeds: \(server.url("/one.xml")), \(server.url("/two.xml"))"
            ),
            "\(result.stderr)")
        #expect(
            result.stderr.contains("\(server.url("/empty/")): an HTML page that advertises no feed"), "\(result.stderr)"
        )
        #expect(
            try sandbox.rows("feeds.db", "SELECT source, title FROM feeds WHERE title IS NOT NULL ORDER BY title")
                == [
                    [server.url("/one.xml"), "One"], [server.url("/three.xml"), "Three"],
                    [server.url("/two.xml"), "Two"]
                ])
        #expect(server.requests("/one.xml").count == 1)
    }

    @Test("a gzip-encoded page is decompressed before its links are read, with and without --all")
    func gzipPage() throws {
        let html = """
            <!DOCTYPE html><html><head><title>Site</title>
            <link rel="alternate" type="application/rss+xml" href="/one.xml">
            <link rel="alternate" type="application/atom+xml" href="/two.xml"></head><body>Hello</body></html>
            """
        let gzipped = [("Content-Type", "text/html; charset=utf-8"), ("Content-Encoding", "gzip")]
        server.route("/gz/", LoopbackHTTPServer.Route(headers: gzipped, body: Gzip.compress(Array(html.utf8))))
        // Compressed without a Content-Encoding header: read as a feed's body is.
        server.route(
            "/unsaid/",
            LoopbackHTTPServer.Route(
                headers: [("Content-Type", "text/html")], body: Gzip.compress(Array(html.utf8))))
        server.route("/one.xml", .feed(feedText([("1", "one", "")], title: "One")))
        server.route("/two.xml", .feed(feedText([("2", "two", "")], title: "Two")))
        let first = try sandbox.run(["feed", server.url("/gz/"), "--out", "first.db"])
        #expect(first.status == 0, "\(first)")
        #expect(try sandbox.rows("first.db", "SELECT title FROM feeds") == [["One"]])
        let all = try sandbox.run(["feed", server.url("/gz/"), server.url("/unsaid/"), "--all", "--out", "all.db"])
        #expect(all.status == 0, "\(all)")
        #expect(try sandbox.rows("all.db", "SELECT title FROM feeds ORDER BY title") == [["One"], ["Two"]])
        let pageRequests = server.requests("/gz/")
        #expect(pageRequests.count == 2)
        #expect(pageRequests.allSatisfy { $0.header("Accept-Encoding")?.contains("gzip") == true })
    }

    @Test("a page saved as a file: its feed beside it is read and archived under its own name; with --all, each")
    func pageFile() throws {
        try sandbox.write("site/feeds/one.xml", feedText([("1", "one", "")], title: "One"))
        server.route("/two.xml", .feed(feedText([("2", "two", "")], title: "Two")))
        let links = """
            <link rel="alternate" type="application/rss+xml" href="feeds/one.xml">
            <link rel="alternate" type="application/rss+xml" href="\(server.url("/two.xml"))">
            """
        try sandbox.write(
            "site/index.html", "\u{FEFF}\n  <!doctype HTML><html><head>\(links)</head><body>Hi</body></html>")

        let first = try sandbox.run(["feed", "site/index.html", "-v"])
        #expect(first.status == 0, "\(first)")
        let feedFile = sandbox.path("site/feeds/one.xml")
        #expect(
            first.stderr.contains(
                "site/index.html: an HTML page; reading the first feed it advertises, "
                    + "\(URL(fileURLWithPath: feedFile).absoluteString) (application/rss+xml)"), "\(first.stderr)")
        #expect(try sandbox.rows("feeds.db", "SELECT title FROM feeds") == [["One"]])
        #expect(server.requests("/two.xml").isEmpty)

        let all = try sandbox.run(["feed", "site/index.html", "--all", "--out", "all.db"])
        #expect(all.status == 0, "\(all)")
        #expect(try sandbox.rows("all.db", "SELECT title FROM feeds ORDER BY title") == [["One"], ["Two"]])
    }

    @Test(
        "an HTML file that advertises no feed is read as it is and fails as no feed (65); a feed file is never taken for a page"
    )
    func pageFileWithoutFeeds() throws {
        try sandbox.write("plain.html", "<html><head><title>x</title></head><body>no feeds</body></html>")
        try sandbox.write("feed.rss", feedText(threeItems))
        let result = try sandbox.run(["feed", "plain.html", "feed.rss"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("plain.html"), "\(result.stderr)")
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
    }
}
