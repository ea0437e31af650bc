import Foundation
import IngestFeeds
import IngestCore
import IngestTestSupport
import Testing

/// A feed's JSON made in parts — items as they end, the rest once the feed has
/// ended — is the same text, byte for byte, as the whole value's `prettyText()`.
@Suite("gofeed's JSON in parts: the same text as the whole")
struct GofeedPrettyJSONTests {
    /// The feed's text assembled from its parts, indented by `indent`.
    static func assembled(_ feed: Feed, indent: Int) -> String {
        var parts = GofeedPrettyJSON(indent: indent)
        var items: [UInt8] = []
        for item in feed.items { parts.appendItem(item, to: &items) }
        var header = feed
        header.items = []
        switch parts.ending(of: header) {
        case .whole(let text): return text
        case .around(let head, let tail): return head + String(decoding: items, as: UTF8.self) + tail
        }
    }

    static var feeds: [Feed] {
        get throws {
            var feeds = try ["podcast.rss", "news.atom", "feed.json", "feed.rss"].map {
                try Feed(contentsOf: packageRoot.appendingPathComponent("Samples/\($0)"))
            }
            var small = Feed(format: FeedFormat(.rss, version: "2.0"))
            small.title = "T"
            feeds.append(small)  // no item: one line
            for count in [1, 3, 24, 25, 26, 40] {  // empty items: one line while they fit
                small.items = Array(repeating: FeedItem(), count: count)
                feeds.append(small)
            }
            var mixed = small
            mixed.items = [FeedItem(), feeds[0].items[0], FeedItem()]
            feeds.append(mixed)
            return feeds
        }
    }

    @Test("a feed alone, and feeds in an array, as prettyText() writes them")
    func sameText() throws {
        let feeds = try Self.feeds
        for feed in feeds {
            #expect(Self.assembled(feed, indent: 0) == feed.gofeedJSONValue.prettyText())
        }
        let array = "[\n" + feeds.map { "  " + Self.assembled($0, indent: 2) }.joined(separator: ",\n") + "\n]"
        #expect(array == JSONValue.array(feeds.map(\.gofeedJSONValue)).prettyText())
    }
}
