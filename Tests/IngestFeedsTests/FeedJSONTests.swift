import Foundation
import IngestFeeds
import IngestCore
import Testing

@Suite("gofeed's JSON: keys, order, empty fields, dates")
struct FeedJSONTests {
    @Test("keys in gofeed's order, empty fields left out, items/feedType/feedVersion always written")
    func shape() throws {
        var feed = Feed(format: FeedFormat(.rss, version: "2.0"))
        feed.title = "T"
        feed.updatedParsed = FeedDate(parsing: "2019-10-12T09:20:50.52+02:00")
        feed.links = [Link(href: "https://example.org/", rel: "alternate")]
        let text = String(decoding: feed.gofeedJSON(), as: UTF8.self)
        #expect(
            text
                == #"{"title":"T","links":["https://example.org/"],"updatedParsed":"2019-10-12T07:20:50.52Z","items":[],"feedType":"rss","feedVersion":"2.0"}"#
        )
    }

    @Test("an extension writes all four keys; Dublin Core and iTunes only what they hold")
    func extensions() throws {
        var item = FeedItem()
        item.extensions = ["dc": ["creator": [Extension(name: "creator", value: "Ann")]]]
        item.dublinCore = DublinCoreExtension(item.extensions["dc"]!)
        var iTunes = ITunesItemExtension()
        iTunes.duration = "61"
        item.iTunes = iTunes
        let text = String(decoding: item.gofeedJSON(), as: UTF8.self)
        #expect(
            text
                == #"{"dcExt":{"creator":["Ann"]},"itunesExt":{"duration":"61"},"extensions":{"dc":{"creator":[{"name":"creator","value":"Ann","attrs":{},"children":{}}]}}}"#
        )
    }

    @Test("decoding gofeed's JSON gives the feed back")
    func roundTrip() throws {
        let original = try feed(
            """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>T</title><link>https://example.org/</link><itunes:category text="News"/>
            <item><title>I</title><guid>g</guid><pubDate>Thu, 01 Jan 2004 19:48:21 GMT</pubDate><dc:creator>A (a@example.org)</dc:creator>
            <enclosure url="https://example.org/a.mp3" length="10" type="audio/mpeg"/></item>
            </channel></rss>
            """)
        let decoded = try JSONDecoder().decode(Feed.self, from: original.gofeedJSON(prettyPrinted: true))
        #expect(decoded.gofeedJSON() == original.gofeedJSON())
        #expect(decoded.items.first?.publishedParsed == original.items.first?.publishedParsed)
        #expect(decoded.items.first?.enclosures.first?.byteCount == 10)
        // Through JSONEncoder (key order is then the encoder's): the same values.
        let viaEncoder = try JSONValue(parsing: String(decoding: try JSONEncoder().encode(original), as: UTF8.self))
        #expect(GofeedJSON.sorted(viaEncoder) == GofeedJSON.sorted(original.gofeedJSONValue))
        #expect(decoded.iTunes?.categories.first?.text == "News")
    }
}
