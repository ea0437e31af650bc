import Foundation
import IngestFeeds
import IngestCore
import Testing

@Suite("Ill-formed feeds: libxml2's recovering mode as a fallback")
struct RecoveryTests {
    @Test("an undeclared prefix: read by its usual meaning, marked not well-formed")
    func undeclaredPrefix() throws {
        let parsed = try feed(
            """
            <rss version="2.0">
              <channel>
                <title>t</title>
                <item><title>one</title><content:encoded><![CDATA[<p>Body</p>]]></content:encoded>
                  <dc:creator>Ann</dc:creator></item>
              </channel>
            </rss>
            """)
        #expect(!parsed.wellFormed)
        let error = try #require(parsed.firstError)
        #expect(error.line == 4)
        #expect(error.message.contains("prefix"))
        #expect(parsed.items.count == 1)
        #expect(parsed.items[0].content?.value == "<p>Body</p>")
        #expect(parsed.items[0].author?.name == "Ann")
        #expect(parsed.items[0].dublinCore?.creator == ["Ann"])
    }

    @Test("a bare ampersand and HTML entities are kept as text; later references still decode")
    func ampersands() throws {
        let parsed = try feed(
            """
            <rss version="2.0"><channel>
            <title>Fish & Chips &amp; more &lt;3</title>
            <link>https://example.org/?a=1&b=2</link>
            <item><title>caf&eacute; &nbsp;&mdash; &#233;</title><guid>x&copy=2;y</guid></item>
            </channel></rss>
            """)
        #expect(!parsed.wellFormed)
        #expect(parsed.firstError?.line == 2)
        #expect(parsed.title?.value == "Fish & Chips & more <3")
        #expect(parsed.link == "https://example.org/?a=1&b=2")
        #expect(parsed.items.first?.title?.value == "café \u{A0}— é")
        #expect(parsed.items.first?.guid == "x&copy=2;y")
    }

    @Test("a missing end tag: the items read so far, the one cut short included")
    func truncated() throws {
        let parsed = try feed(
            """
            <rss version="2.0"><channel><title>t</title>
            <item><title>one</title></item>
            <item><title>two</title><description>cut short
            """)
        #expect(!parsed.wellFormed)
        #expect(parsed.items.map { $0.title?.value } == ["one", "two"])
        #expect(parsed.items[1].description?.value == "cut short")
    }

    @Test("mismatched tags in the middle: the rest is read, entities and all")
    func mismatched() throws {
        let parsed = try feed(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
            <entry><title>a</b></title><id>1</id></entry>
            <entry><title>x &amp; y</title><id>2</id></entry>
            </feed>
            """)
        #expect(!parsed.wellFormed)
        #expect(parsed.items.map(\.guid) == ["1", "2"])
        #expect(parsed.items[1].title?.value == "x & y")
    }

    @Test("HTML left open in a description (<br>, <img>) and a bare <: the next item is still an item")
    func htmlInText() throws {
        let parsed = try feed(
            """
            <rss version="2.0"><channel><title>t</title>
            <item><guid>1</guid><description>line<br>next <img src="a.png"> 1 < 2</description></item>
            <item><guid>2</guid><description>ok</description></item>
            </channel></rss>
            """)
        #expect(!parsed.wellFormed)
        #expect(parsed.items.map(\.guid) == ["1", "2"])
        #expect(parsed.items[0].description?.value == #"line<br/>next <img src="a.png"/> 1 < 2"#)
        #expect(parsed.items[0].image?.url == "a.png")
        #expect(parsed.items[1].description?.value == "ok")
    }

    @Test("streaming: items handed over before the error are not handed over again")
    func noDuplicates() throws {
        let text = """
            <rss version="2.0"><channel><title>t</title>
            <item><guid>1</guid></item><item><guid>2</guid></item>
            <item><guid>3</guid><title>A & B</title></item><item><guid>4</guid></item>
            </channel></rss>
            """
        var guids: [String] = []
        let header = try FeedReader().read(data: Data(text.utf8)) { item, _ in guids.append(item.guid ?? "?") }
        #expect(guids == ["1", "2", "3", "4"])
        #expect(!header.wellFormed)
    }

    @Test("recovery .never fails on the first error; .always reads with libxml2 from the start")
    func modes() throws {
        let text = #"<rss version="2.0"><channel><title>A & B</title></channel></rss>"#
        let error = try #require(throws: IngestError.self) {
            try feed(text, options: FeedReader.Options(recovery: .never))
        }
        #expect(error.kind == .data)
        #expect(error.position?.line == 1)
        let always = try feed(text, options: FeedReader.Options(recovery: .always))
        #expect(always.title?.value == "A & B")
        #expect(!always.wellFormed)
        // Well-formed input read with libxml2 is well-formed.
        let clean = try feed(
            #"<rss version="2.0"><channel><title>A &amp; B</title></channel></rss>"#,
            options: FeedReader.Options(recovery: .always))
        #expect(clean.wellFormed)
        #expect(clean.firstError == nil)
    }

    @Test("a source that cannot be reopened is replayed from the copy kept as it was read; strict, the parser's error")
    func noReopen() throws {
        let bytes = Array(#"<rss version="2.0"><channel><title>A & B</title></channel></rss>"#.utf8)
        func once() -> GeneratedSource {
            var sent = false
            return GeneratedSource {
                sent
                    ? nil
                    : {
                        sent = true
                        return bytes
                    }()
            }
        }
        let feed = try FeedReader().read(once()) { _, _ in }
        #expect(feed.title?.value == "A & B")
        #expect(!feed.wellFormed)
        #expect(feed.firstError?.line == 1)
        let error = try #require(throws: IngestError.self) {
            try FeedReader(options: FeedReader.Options(recovery: .never)).read(once()) { _, _ in }
        }
        #expect(error.kind == .data)
        #expect(error.file == "<generated>")
    }

    @Test("a well-formed feed is marked well-formed")
    func wellFormed() throws {
        let parsed = try feed(#"<rss version="2.0"><channel><title>t</title></channel></rss>"#)
        #expect(parsed.wellFormed)
        #expect(parsed.firstError == nil)
    }
}
