import Foundation
import Testing

@Suite("ingest feed --html: the archive stores sanitized HTML unless told otherwise")
struct FeedSafeHTMLCLITests {
    private static let itemHTML =
        #"<p onclick="steal()">Read <a href="javascript:steal()">this</a></p><script>steal()</script>"#
    private static let itemSafe = "<p>Read <a>this</a></p>"
    private static let contentHTML =
        #"<img src="https://example.org/a.png" onerror="steal()"><iframe src="https://evil.example/"></iframe>"#
    private static let contentSafe = #"<img src="https://example.org/a.png">"#
    private static let feedHTML = #"<b style="color: red; background: url(https://evil.example/)">News</b>"#
    // A style with `url(` anywhere is dropped whole.
    private static let feedSafe = "<b>News</b>"

    /// An RSS feed whose channel description, item description and content are HTML with script in them.
    private static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
        <title>Hostile</title><link>https://example.org/</link><description><![CDATA[\(feedHTML)]]></description>
        <item><guid>a</guid><title>A</title>
        <description><![CDATA[\(itemHTML)]]></description>
        <content:encoded><![CDATA[\(contentHTML)]]></content:encoded></item>
        </channel></rss>
        """

    @Test("--to db stores safe HTML by default; --html original stores it as given")
    func archive() throws {
        let sandbox = try Sandbox()
        try sandbox.write("hostile.rss", Self.feed)
        let safe = try sandbox.run(["feed", "hostile.rss", "--out", "safe.db"])
        #expect(safe.status == 0, "\(safe)")
        #expect(
            try sandbox.rows("safe.db", "SELECT summary, content FROM items")
                == [[Self.itemSafe, Self.contentSafe]])
        #expect(try sandbox.rows("safe.db", "SELECT description FROM feeds") == [[Self.feedSafe]])

        let explicit = try sandbox.run(["feed", "hostile.rss", "--out", "explicit.db", "--html", "safe"])
        #expect(explicit.status == 0, "\(explicit)")
        #expect(
            try sandbox.rows("explicit.db", "SELECT summary, content FROM items")
                == [[Self.itemSafe, Self.contentSafe]])

        let original = try sandbox.run(["feed", "hostile.rss", "--out", "original.db", "--html", "original"])
        #expect(original.status == 0, "\(original)")
        #expect(
            try sandbox.rows("original.db", "SELECT summary, content FROM items")
                == [[Self.itemHTML, Self.contentHTML]])
        #expect(try sandbox.rows("original.db", "SELECT description FROM feeds") == [[Self.feedHTML]])
    }

    @Test("--to db stores an Atom text of type text escaped: the column holds HTML, and plain text shows as written")
    func atomPlainText() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "text.atom",
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>urn:f</id>
            <entry><id>urn:1</id><title>one</title>
            <summary type="text">&lt;img src=x onerror=alert(1)&gt; 1 &lt; 2</summary>
            <content type="text/plain">&lt;script&gt;alert(2)&lt;/script&gt;</content></entry>
            </feed>
            """)
        let run = try sandbox.run(["feed", "text.atom", "--out", "text.db"])
        #expect(run.status == 0, "\(run)")
        #expect(
            try sandbox.rows("text.db", "SELECT summary, content FROM items")
                == [["&lt;img src=x onerror=alert(1)&gt; 1 &lt; 2", "&lt;script&gt;alert(2)&lt;/script&gt;"]])
        let original = try sandbox.run(["feed", "text.atom", "--out", "original.db", "--html", "original"])
        #expect(original.status == 0, "\(original)")
        #expect(
            try sandbox.rows("original.db", "SELECT summary FROM items")
                == [["<img src=x onerror=alert(1)> 1 < 2"]])
    }

    @Test("--to json and ndjson write gofeed's JSON as given by default, sanitized with --html safe")
    func json() throws {
        let sandbox = try Sandbox()
        try sandbox.write("hostile.rss", Self.feed)
        for kind in ["json", "ndjson"] {
            let given = try sandbox.run(["feed", "hostile.rss", "--to", kind, "--out", "-"])
            #expect(given.status == 0, "\(given)")
            let givenItem = try Self.item(given.stdout, kind: kind)
            #expect(givenItem["description"] as? String == Self.itemHTML)
            #expect(givenItem["content"] as? String == Self.contentHTML)

            let safe = try sandbox.run(["feed", "hostile.rss", "--to", kind, "--out", "-", "--html", "safe"])
            #expect(safe.status == 0, "\(safe)")
            let safeItem = try Self.item(safe.stdout, kind: kind)
            #expect(safeItem["description"] as? String == Self.itemSafe)
            #expect(safeItem["content"] as? String == Self.contentSafe)
        }
        let json = try sandbox.run(["feed", "hostile.rss", "--to", "json", "--out", "-", "--html", "safe"])
        let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        #expect(object?["description"] as? String == Self.feedSafe)
    }

    @Test("--html takes safe or original only")
    func badValue() throws {
        let sandbox = try Sandbox()
        try sandbox.write("hostile.rss", Self.feed)
        let result = try sandbox.run(["feed", "hostile.rss", "--html", "clean"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--html"), "\(result)")
        #expect(!sandbox.exists("feeds.db"))
    }

    /// The first item of `--to json` (one feed, an object) or `--to ndjson` (its first line).
    private static func item(_ data: Data, kind: String) throws -> [String: Any] {
        if kind == "ndjson" {
            let line = data.split(separator: UInt8(ascii: "\n")).first ?? Data()
            return try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] ?? [:]
        }
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (object?["items"] as? [[String: Any]])?.first ?? [:]
    }
}
