import Foundation
import IngestCore
import IngestFeeds
import Testing

@Suite("xml:base and the feed's own URL resolve relative links (RFC 3986)")
struct XMLBaseTests {
    @Test("Atom: nested xml:base, on links, ids, logos, authors' URIs and inside HTML and XHTML content")
    func atom() throws {
        let parsed = try feed(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.org/blog/">
              <title>t</title>
              <link href="index.html"/>
              <link rel="self" href="/feed.atom"/>
              <logo>images/logo.png</logo>
              <entry xml:base="2024/">
                <id>post-1</id>
                <link href="post-1.html"/>
                <link rel="enclosure" href="../audio/ep1.mp3" type="audio/mpeg" length="100"/>
                <author><name>A</name><uri>../../people/a</uri></author>
                <summary type="html">See &lt;a href="more.html"&gt;more&lt;/a&gt;</summary>
                <content type="xhtml" xml:base="http://other.example/x/">
                  <div xmlns="http://www.w3.org/1999/xhtml"><p>Read <a href="y">this</a> &amp; <img src="/i.png"/></p></div>
                </content>
              </entry>
              <entry><link href="plain.html"/></entry>
            </feed>
            """)
        #expect(parsed.link == "http://example.org/blog/index.html")
        #expect(parsed.feedLink == "http://example.org/feed.atom")
        #expect(parsed.image?.url == "http://example.org/blog/images/logo.png")
        let first = parsed.items[0]
        #expect(first.guid == "http://example.org/blog/2024/post-1")
        #expect(first.link == "http://example.org/blog/2024/post-1.html")
        #expect(
            first.enclosures == [
                Enclosure(url: "http://example.org/blog/audio/ep1.mp3", length: "100", type: "audio/mpeg")
            ])
        #expect(first.authors.first?.url == "http://example.org/people/a")
        #expect(first.description?.value == #"See <a href="http://example.org/blog/2024/more.html">more</a>"#)
        #expect(
            first.content?.value
                == #"<p>Read <a href="http://other.example/x/y">this</a> &amp; <img src="http://other.example/i.png"/></p>"#
        )
        #expect(first.content?.type == .xhtml)
        #expect(parsed.items[1].link == "http://example.org/blog/plain.html")
    }

    @Test("RSS: the feed's own URL as the base, xml:base over it")
    func rssWithBaseURL() throws {
        let text = """
            <rss version="2.0"><channel>
              <link>/</link>
              <image><url>logo.png</url><title>L</title></image>
              <item>
                <link>posts/1</link>
                <enclosure url="media/1.mp3" length="5" type="audio/mpeg"/>
                <description>&lt;img src="pics/1.jpg"&gt; text</description>
              </item>
              <item xml:base="https://cdn.example.net/feed/"><link>2</link></item>
            </channel></rss>
            """
        let parsed = try feed(
            text, options: FeedReader.Options(baseURL: URL(string: "https://example.org/news/rss.xml")))
        #expect(parsed.link == "https://example.org/")
        #expect(parsed.image == Image(url: "https://example.org/news/logo.png", title: "L"))
        #expect(parsed.items[0].link == "https://example.org/news/posts/1")
        #expect(parsed.items[0].enclosures.first?.url == "https://example.org/news/media/1.mp3")
        #expect(parsed.items[0].description?.value == #"<img src="https://example.org/news/pics/1.jpg"> text"#)
        #expect(parsed.items[0].image?.url == "https://example.org/news/pics/1.jpg")
        #expect(parsed.items[1].link == "https://cdn.example.net/feed/2")
        // Without a base, links stay as written.
        let plain = try feed(text)
        #expect(plain.items[0].link == "posts/1")
    }

    @Test("JSON Feed: relative URLs against the feed's own URL")
    func jsonFeed() throws {
        let parsed = try feed(
            """
            {"version": "https://jsonfeed.org/version/1.1", "home_page_url": "/",
             "items": [{"id": "1", "url": "posts/1", "content_html": "<a href=\\"x\\">x</a>"}]}
            """, options: FeedReader.Options(baseURL: URL(string: "https://example.org/feed.json")))
        #expect(parsed.link == "https://example.org/")
        #expect(parsed.items[0].link == "https://example.org/posts/1")
        #expect(parsed.items[0].content?.value == #"<a href="https://example.org/x">x</a>"#)
    }

    /// A long base and many short relative links (issue 27, item 2): 134 KB of feed
    /// once made a 200 MB item, and 525 KB trapped. Resolving may add at most 8 times
    /// the bytes of the values it rewrites, plus 4 MiB, in one document.
    @Test(
        "Links resolved against a long base may not amplify the document: a data error, at once",
        arguments: ["html", "link", "json", "nested"])
    func amplificationRefused(shape: String) throws {
        let base = "http://example.com/" + String(repeating: "a/", count: 50_000)
        let text: String
        switch shape {
        case "html":
            let links = String(repeating: "&lt;a href=&quot;x&quot;&gt;l&lt;/a&gt;", count: 20_000)
            text =
                #"<rss version="2.0"><channel xml:base="\#(base)"><title>t</title><item><description>\#(links)</description></item></channel></rss>"#
        case "link":
            let items = String(repeating: "<item><title>i</title><link>x</link></item>", count: 20_000)
            text = #"<rss version="2.0"><channel xml:base="\#(base)"><title>t</title>\#(items)</channel></rss>"#
        case "nested":
            // Each relative base repeats the one around it: 900 levels of 1 KB would
            // be 400 MB of bases.
            let segment = String(repeating: "a", count: 1000) + "/"
            text =
                #"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:x="urn:x"><title>t</title><entry><id>1</id>"#
                + String(repeating: #"<x:e xml:base="\#(segment)">"#, count: 900)
                + String(repeating: "</x:e>", count: 900) + "</entry></feed>"
        default:
            let items = Array(repeating: #"{"id":"1","url":"x"}"#, count: 20_000).joined(separator: ",")
            text = #"{"version":"https://jsonfeed.org/version/1.1","title":"t","items":[\#(items)]}"#
        }
        var options = FeedReader.Options()
        options.baseURL = URL(string: base)
        let started = Date()
        #expect {
            _ = try feed(text, options: options)
        } throws: { error in
            guard let error = error as? IngestError else { return false }
            return error.kind == .data && error.message.contains("refused as an amplification")
        }
        #expect(Date().timeIntervalSince(started) < 10, "refused before the output grew")
    }

    @Test("Many relative links against an ordinary base are all resolved")
    func ordinaryGrowthRead() throws {
        let base = "https://news.example.org/section/2026/11/"
        let items = (0..<5_000).map {
            "<item><link>p\($0).html</link><description>&lt;img src=&quot;i\($0).png&quot;&gt;</description></item>"
        }.joined()
        let parsed = try feed(
            #"<rss version="2.0"><channel xml:base="\#(base)"><title>t</title>\#(items)</channel></rss>"#)
        #expect(parsed.items.count == 5_000)
        #expect(parsed.items[4_999].link == base + "p4999.html")
        #expect(parsed.items[4_999].description?.value == #"<img src="\#(base)i4999.png">"#)
    }
}
