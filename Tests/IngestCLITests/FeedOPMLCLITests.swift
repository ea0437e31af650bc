import Foundation
import IngestFeeds
import LoopbackHTTPServer
import Testing

/// `ingest feed --opml` and `--export-opml` (issue 25): subscriptions in and out,
/// their folders kept, a round trip giving the same feeds and folders.
@Suite("ingest feed --opml and --export-opml: subscription lists")
struct FeedOPMLCLITests {
    let server: LoopbackHTTPServer
    let sandbox: Sandbox

    init() throws {
        server = try LoopbackHTTPServer()
        sandbox = try Sandbox()
        for name in ["a", "b", "c"] {
            server.route(
                "/\(name).xml", .feed(feedText([("\(name)1", "\(name) one", "")], title: "Feed \(name.uppercased())")))
        }
    }

    /// A reader's export: nested folders, a feed in two, one outside any, one that is no URL.
    func subscriptions() -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0"><head><title>My feeds</title></head><body>
          <outline text="News"><outline text="Tech">
            <outline type="rss" text="A" xmlUrl="\(server.url("/a.xml"))" htmlUrl="https://a.example/"/>
          </outline>
            <outline type="rss" text="B" xmlUrl="\(server.url("/b.xml"))" category="/Later"/>
          </outline>
          <outline type="rss" text="C" xmlUrl="\(server.url("/c.xml"))"/>
          <outline type="rss" text="Local" xmlUrl="feeds/local.xml"/>
        </body></opml>
        """
    }

    /// Each archived feed's URL and folders, by URL.
    func folders(_ database: String) throws -> [[String?]] {
        try sandbox.rows(database, "SELECT url, subscription_categories FROM feeds ORDER BY url")
    }

    @Test(
        "--opml reads every http(s) subscription, keeps its folders; --export-opml writes them back; a round trip gives the same"
    )
    func roundTrip() throws {
        try sandbox.write("subs.opml", subscriptions())
        let imported = try sandbox.run(["feed", "--opml", "subs.opml"])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stderr.contains("feeds/local.xml: not an http(s) URL, left out"), "\(imported.stderr)")
        let expected: [[String?]] = [
            [server.url("/a.xml"), #"["News/Tech"]"#],
            [server.url("/b.xml"), #"["News","Later"]"#],
            [server.url("/c.xml"), nil]
        ]
        #expect(try folders("feeds.db") == expected)
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])

        let exported = try sandbox.run(["feed", "--export-opml", "out.opml"])
        #expect(exported.status == 0, "\(exported)")
        let document = try OPMLDocument(data: try sandbox.contents("out.opml"))
        #expect(document.subscriptions.map(\.url) == [server.url("/a.xml"), server.url("/b.xml"), server.url("/c.xml")])
        #expect(document.subscriptions.map(\.categories) == [["News/Tech"], ["News", "Later"], []])
        #expect(document.subscriptions.map(\.title) == ["Feed A", "Feed B", "Feed C"])

        let again = try sandbox.run(["feed", "--opml", "out.opml", "--out", "second.db"])
        #expect(again.status == 0, "\(again)")
        #expect(try folders("second.db") == expected)

        // On standard output too, after reading sources.
        let piped = try sandbox.run(["feed", server.url("/a.xml"), "--export-opml", "-"])
        #expect(piped.status == 0, "\(piped)")
        #expect(String(decoding: piped.stdout, as: UTF8.self).hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
    }

    @Test("a folder change is stored on the next import; --due works on imported lists")
    func reimport() throws {
        try sandbox.write("subs.opml", subscriptions())
        #expect(try sandbox.run(["feed", "--opml", "subs.opml"]).status == 0)
        try sandbox.write(
            "subs.opml", subscriptions().replacingOccurrences(of: "text=\"Tech\"", with: "text=\"Gadgets\""))
        let second = try sandbox.run(["feed", "--opml", "subs.opml", "--due", "-v"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stderr.contains("3 not due"), "\(second.stderr)")
        #expect(try folders("feeds.db").first?.last == #"["News/Gadgets"]"#)
    }

    @Test("a URL with a space is one feed, under the address it is fetched at, with its folder; listed twice, merged")
    func spaceInURL() throws {
        server.route("/sp%20ace.xml", .feed(feedText([("s1", "s one", "")], title: "Spaced")))
        try sandbox.write(
            "space.opml",
            """
            <opml version="2.0"><body><outline text="News">
              <outline type="rss" text="S" xmlUrl="\(server.url("/sp ace.xml"))"/>
            </outline>
            <outline type="rss" text="S" xmlUrl="\(server.url("/sp%20ace.xml"))" category="Later"/>
            </body></opml>
            """)
        let run = try sandbox.run(["feed", "--opml", "space.opml", "--export-opml", "out.opml"])
        #expect(run.status == 0, "\(run)")
        #expect(try folders("feeds.db") == [[server.url("/sp%20ace.xml"), #"["News","Later"]"#]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["1"]])
        let exported = try OPMLDocument(data: try sandbox.contents("out.opml"))
        #expect(exported.subscriptions.map(\.url) == [server.url("/sp%20ace.xml")])
    }

    @Test("an OPML file nested too deep names the fixed limit of ingest feed, not an import option")
    func tooDeep() throws {
        let depth = 1001
        try sandbox.write(
            "deep.opml",
            "<opml version=\"2.0\"><body>" + String(repeating: "<outline text=\"f\">", count: depth)
                + String(repeating: "</outline>", count: depth) + "</body></opml>")
        let run = try sandbox.run(["feed", "--opml", "deep.opml"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("deep.opml:1:") && run.stderr.contains("(a fixed limit of ingest feed)"), "\(run)")
        #expect(!run.stderr.contains("--max-depth"), "\(run)")
    }

    @Test(
        "usage and input errors: no such list (66), not OPML (65), --export-opml without an archive (66) or with ndjson (64)"
    )
    func errors() throws {
        #expect(try sandbox.run(["feed", "--opml", "missing.opml"]).status == 66)
        try sandbox.write("not.opml", "<rss version=\"2.0\"><channel/></rss>")
        let notOPML = try sandbox.run(["feed", "--opml", "not.opml"])
        #expect(notOPML.status == 65, "\(notOPML)")
        #expect(notOPML.stderr.contains("not.opml"), "\(notOPML)")
        let noArchive = try sandbox.run(["feed", "--export-opml", "out.opml"])
        #expect(noArchive.status == 66, "\(noArchive)")
        #expect(!sandbox.exists("out.opml") && !sandbox.exists("feeds.db"))
        #expect(try sandbox.run(["feed", "--export-opml", "out.opml", "--to", "ndjson"]).status == 64)
        #expect(try sandbox.run(["feed"]).status == 64)
    }
}
