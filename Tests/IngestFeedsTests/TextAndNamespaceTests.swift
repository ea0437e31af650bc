import Foundation
import IngestFeeds
import Testing

@Suite("Text as given, with its type and a plain view; namespaces by URI; extensions as data")
struct TextAndNamespaceTests {
    @Test(
        "plain text: tags out, references decoded, white space collapsed",
        arguments: [
            (FeedText("Fish &amp; <b>Chips</b>", type: .html), "Fish & Chips"),
            (FeedText("<p>one</p><p>two</p>", type: .html), "one two"),
            (FeedText("Hello <b>w</b>orld", type: .html), "Hello world"),
            (FeedText("a<br/>b &nbsp; c &#8217;d&#x2019;", type: .html), "a b c \u{2019}d\u{2019}"),
            (FeedText("<script>alert(1)</script>Safe<style>p{}</style> text<!-- hidden -->", type: .html), "Safe text"),
            (FeedText("  spaced\n\n  out\ttext  ", type: .text), "spaced out text"),
            (FeedText("5 < 6 & 7 > 3", type: .text), "5 < 6 & 7 > 3"),
            (FeedText("a &bogus; b & c", type: .html), "a &bogus; b & c"),
            (FeedText("&#150; dash", type: .html), "\u{2013} dash")
        ])
    func plainText(_ text: FeedText, _ expected: String) {
        #expect(text.plainText == expected)
    }

    @Test("RSS: HTML in a title keeps its markup and is typed HTML; a plain title is text")
    func rssTitles() throws {
        let parsed = try feed(
            """
            <rss version="2.0"><channel><title>Plain &amp; simple</title>
            <item><title>&lt;b&gt;Bold&lt;/b&gt; move</title><description><![CDATA[<p>Para</p>]]></description></item>
            <item><title>Naked <i>markup</i> here</title></item>
            </channel></rss>
            """)
        #expect(parsed.title == FeedText("Plain & simple", type: .text))
        #expect(parsed.items[0].title == FeedText("<b>Bold</b> move", type: .html))
        #expect(parsed.items[0].title?.plainText == "Bold move")
        #expect(parsed.items[0].description == FeedText("<p>Para</p>", type: .html))
        #expect(parsed.items[1].title?.value == "Naked <i>markup</i> here")
    }

    @Test("Atom XHTML content keeps its markup in document order")
    func xhtmlOrder() throws {
        let parsed = try feed(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><entry>
            <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Hello <em>there</em> &amp; <b>welcome</b>.</div></title>
            <content type="xhtml"><xhtml:div xmlns:xhtml="http://www.w3.org/1999/xhtml"><xhtml:p>One <xhtml:br/>two</xhtml:p><xhtml:p>3 &lt; 4</xhtml:p></xhtml:div></content>
            <summary type="text">  plain   text  </summary>
            </entry></feed>
            """)
        let entry = try #require(parsed.items.first)
        #expect(entry.title == FeedText("Hello <em>there</em> &amp; <b>welcome</b>.", type: .xhtml))
        #expect(entry.title?.plainText == "Hello there & welcome.")
        #expect(entry.content?.value == "<p>One <br/>two</p><p>3 &lt; 4</p>")
        #expect(entry.content?.plainText == "One two 3 < 4")
        #expect(entry.description == FeedText("plain   text", type: .text))
    }

    @Test("Atom: html and text types, Base64 content")
    func atomTypes() throws {
        let parsed = try feed(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><entry>
            <title type="html">&lt;i&gt;It&lt;/i&gt; &amp;amp; more</title>
            <content type="application/octet-stream">SGVsbG8sIHdvcmxk</content>
            </entry></feed>
            """)
        #expect(parsed.items[0].title == FeedText("<i>It</i> &amp; more", type: .html))
        #expect(parsed.items[0].title?.plainText == "It & more")
        #expect(parsed.items[0].content?.value == "Hello, world")
    }

    @Test(
        "namespaces by URI: DC:creator and dc:creator bound to one URI are one element; a prefix bound to another URI is not"
    )
    func namespacesByURI() throws {
        let parsed = try feed(
            """
            <rss version="2.0" xmlns:DC="http://purl.org/dc/elements/1.1/" xmlns:dc="http://example.org/not-dublin-core">
            <channel><item>
              <DC:creator>Right</DC:creator>
              <dc:creator>Wrong</dc:creator>
              <x:subject xmlns:x="http://purl.org/dc/elements/1.1/">Topic</x:subject>
            </item></channel></rss>
            """)
        let item = try #require(parsed.items.first)
        #expect(item.dublinCore?.creator == ["Right"])
        #expect(item.dublinCore?.subject == ["Topic"])
        #expect(item.author?.name == "Right")
        #expect(item.extensions["dc"]?["creator"]?.map(\.value) == ["Right"])
        // The other URI may not take "dc", which Dublin Core's URI owns: it is filed under its URI.
        #expect(item.extensions.count == 2)
        #expect(item.extensions["http://example.org/not-dublin-core"]?["creator"]?.first?.value == "Wrong")
    }

    @Test("extensions as data: iTunes, podcast:, Media RSS, content:encoded, and any other namespace")
    func extensions() throws {
        let parsed = try feed(
            """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:i="http://www.itunes.com/DTDs/PodCast-1.0.dtd"
                 xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:media="http://search.yahoo.com/mrss/"
                 xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:geo="http://www.w3.org/2003/01/geo/wgs84_pos#"
                 xmlns:my="urn:example:mine">
            <channel>
              <i:owner><i:name>Owner</i:name><i:email>o@example.org</i:email></i:owner>
              <i:category text="Technology"><i:category text="Podcasting"/></i:category>
              <i:explicit>false</i:explicit>
              <podcast:locked owner="o@example.org">yes</podcast:locked>
              <item>
                <i:duration>1:02:03</i:duration>
                <podcast:transcript url="https://example.org/t.vtt" type="text/vtt"/>
                <media:content url="https://example.org/v.mp4" type="video/mp4"><media:title>Clip</media:title></media:content>
                <content:encoded>&lt;p&gt;Full&lt;/p&gt;</content:encoded>
                <geo:lat>51.5</geo:lat>
                <my:rating scale="5">4</my:rating>
              </item>
            </channel></rss>
            """)
        let iTunes = try #require(parsed.iTunes)
        #expect(iTunes.owner == ITunesOwner(email: "o@example.org", name: "Owner"))
        #expect(
            iTunes.categories == [ITunesCategory(text: "Technology", subcategory: ITunesCategory(text: "Podcasting"))])
        #expect(iTunes.explicit == "false")
        #expect(parsed.categories == ["Technology", "Podcasting"])
        #expect(
            parsed.extensions["podcast"]?["locked"]?.first
                == Extension(name: "locked", value: "yes", attributes: ["owner": "o@example.org"]))
        let item = try #require(parsed.items.first)
        #expect(item.iTunes?.duration == "1:02:03")
        #expect(item.iTunes?.durationSeconds == 3723)
        #expect(item.extensions["podcast"]?["transcript"]?.first?.attributes["type"] == "text/vtt")
        let media = try #require(item.extensions["media"]?["content"]?.first)
        #expect(media.attributes["url"] == "https://example.org/v.mp4")
        #expect(media.child("title")?.value == "Clip")
        #expect(item.content == FeedText("<p>Full</p>", type: .html))
        #expect(item.extensions["geo"]?["lat"]?.first?.value == "51.5")
        #expect(
            item.extensions["my"]?["rating"]?.first == Extension(name: "rating", value: "4", attributes: ["scale": "5"])
        )
        // Apple's lowercase iTunes URI and gofeed's CamelCase one are both iTunes.
        let lowercase = try feed(
            """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
            <itunes:author>Jo</itunes:author><itunes:image href="https://example.org/c.jpg"/></channel></rss>
            """)
        #expect(lowercase.iTunes?.author == "Jo")
        #expect(lowercase.author?.name == "Jo")
        #expect(lowercase.image?.url == "https://example.org/c.jpg")
    }

    @Test("RSS items' unknown elements are gofeed's custom fields")
    func custom() throws {
        let parsed = try feed(
            #"<rss version="2.0"><channel><item><rank>3</rank><note>a <b>b</b></note></item></channel></rss>"#)
        #expect(parsed.items[0].custom == ["rank": "3", "note": "a <b>b</b>"])
    }
}
