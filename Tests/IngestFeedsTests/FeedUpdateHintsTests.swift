import Foundation
import IngestFeeds
import IngestCore
import Testing

@Suite("update hints: ttl, skipHours, skipDays, sy:updatePeriod and sy:updateFrequency")
struct FeedUpdateHintsTests {
    static let sy = "http://purl.org/rss/1.0/modules/syndication/"

    /// An RSS 2.0 feed whose channel holds `channel`, with an item after it.
    static func rss(_ channel: String, namespaces: String = "") -> String {
        """
        <?xml version="1.0"?>
        <rss version="2.0" \(namespaces)><channel><title>T</title>\(channel)
        <item><title>one</title></item></channel></rss>
        """
    }

    @Test("ttl: minutes, trimmed")
    func ttl() throws {
        #expect(try feed(Self.rss("<ttl> 60 </ttl>")).updateHints.timeToLive == 60)
        #expect(try feed(Self.rss("<TTL>15</TTL>")).updateHints.timeToLive == 15)
    }

    @Test(
        "invalid and huge numbers are ignored, not trapped on",
        arguments: ["99999999999999999999", "-5", "0", "+5", "1.5", "abc", "", "6 0", "9223372036854775808"])
    func invalidNumbers(_ text: String) throws {
        let parsed = try feed(
            Self.rss(
                """
                <ttl>\(text)</ttl><skipHours><hour>\(text)</hour></skipHours>
                <sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>\(text)</sy:updateFrequency>
                """, namespaces: #"xmlns:sy="\#(Self.sy)""#))
        #expect(parsed.updateHints.timeToLive == nil)
        #expect(parsed.updateHints.skipHours.isEmpty || text == "0")
        // The frequency is ignored: the period's default, once, applies.
        #expect(parsed.updateHints.updatePeriod == .hourly)
        #expect(parsed.updateHints.updateFrequency == 1)
    }

    @Test("the largest Int fits")
    func largestTTL() throws {
        #expect(try feed(Self.rss("<ttl>\(Int.max)</ttl>")).updateHints.timeToLive == Int.max)
    }

    @Test("skipHours: 0 and 23 as written, 24 read as 0, out of range and bogus ones left out")
    func skipHours() throws {
        let hints = try feed(
            Self.rss(
                """
                <skipHours><hour>0</hour><hour> 23 </hour><hour>24</hour><hour>25</hour><hour>x</hour><hour>7</hour>
                <day>Monday</day></skipHours>
                """)
        ).updateHints
        #expect(hints.skipHours == [0, 7, 23])
        #expect(hints.skipDays.isEmpty)
        #expect(try feed(Self.rss("<skipHours><hour>24</hour></skipHours>")).updateHints.skipHours == [0])
        #expect(try feed(Self.rss("<skipHours><hour>23</hour></skipHours>")).updateHints.skipHours == [23])
    }

    @Test("skipDays: names in any case, ISO 8601 numbers; a bogus name left out")
    func skipDays() throws {
        let hints = try feed(
            Self.rss(
                """
                <skipDays><day>Monday</day><day>TUESDAY</day><day> wednesday </day><day>tHuRsDaY</day>
                <day>Friday</day><day>Saturday</day><day>sunday</day><day>Funday</day><day>1</day><day></day></skipDays>
                """)
        ).updateHints
        #expect(hints.skipDays == [1, 2, 3, 4, 5, 6, 7])
        let weekend = try feed(Self.rss("<skipDays><day>Saturday</day><day>Sunday</day><day>Caturday</day></skipDays>"))
        #expect(weekend.updateHints.skipDays == [6, 7])
        #expect(weekend.updateHints.skipHours.isEmpty)
    }

    @Test("several skipHours elements add up")
    func severalLists() throws {
        let hints = try feed(Self.rss("<skipHours><hour>1</hour></skipHours><skipHours><hour>2</hour></skipHours>"))
            .updateHints
        #expect(hints.skipHours == [1, 2])
    }

    @Test("sy: in RSS 1.0 (RDF)")
    func syndicationInRSS10() throws {
        let parsed = try feed(
            """
            <?xml version="1.0"?>
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                     xmlns:sy="\(Self.sy)">
            <channel rdf:about="https://example.org/"><title>T</title><link>https://example.org/</link>
            <sy:updatePeriod> Hourly </sy:updatePeriod><sy:updateFrequency> 2 </sy:updateFrequency></channel>
            <item rdf:about="https://example.org/1"><title>one</title></item>
            </rdf:RDF>
            """)
        #expect(parsed.format.version == "1.0")
        #expect(parsed.updateHints == FeedUpdateHints(updatePeriod: .hourly, updateFrequency: 2))
        #expect(parsed.updateHints.syndicationInterval == 1800)
    }

    @Test("sy: in RSS 2.0, beside ttl")
    func syndicationInRSS20() throws {
        let parsed = try feed(
            Self.rss(
                """
                <ttl>30</ttl><sy:updatePeriod>weekly</sy:updatePeriod><sy:updateFrequency>7</sy:updateFrequency>
                """, namespaces: #"xmlns:sy="\#(Self.sy)""#))
        #expect(parsed.updateHints == FeedUpdateHints(timeToLive: 30, updatePeriod: .weekly, updateFrequency: 7))
        #expect(parsed.updateHints.syndicationInterval == 86400)
    }

    @Test("sy: in Atom")
    func syndicationInAtom() throws {
        let parsed = try feed(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:sy="\(Self.sy)"><title>T</title>
            <sy:updatePeriod>daily</sy:updatePeriod><sy:updateFrequency>4</sy:updateFrequency>
            <entry><title>one</title><id>1</id></entry></feed>
            """)
        #expect(parsed.format.family == .atom)
        #expect(parsed.updateHints == FeedUpdateHints(updatePeriod: .daily, updateFrequency: 4))
        #expect(parsed.updateHints.syndicationInterval == 21600)
    }

    @Test("sy: defaults: a period alone is once per period, a frequency alone is per day")
    func syndicationDefaults() throws {
        let ns = #"xmlns:sy="\#(Self.sy)""#
        let periodOnly = try feed(Self.rss("<sy:updatePeriod>monthly</sy:updatePeriod>", namespaces: ns)).updateHints
        #expect(periodOnly == FeedUpdateHints(updatePeriod: .monthly, updateFrequency: 1))
        #expect(periodOnly.syndicationInterval == 2_592_000)
        let frequencyOnly = try feed(Self.rss("<sy:updateFrequency>2</sy:updateFrequency>", namespaces: ns)).updateHints
        #expect(frequencyOnly == FeedUpdateHints(updatePeriod: .daily, updateFrequency: 2))
        #expect(frequencyOnly.syndicationInterval == 43200)
        // A period that is none of the five counts as absent.
        let bogus = try feed(Self.rss("<sy:updatePeriod>fortnightly</sy:updatePeriod>", namespaces: ns)).updateHints
        #expect(bogus.isEmpty)
    }

    @Test(
        "a feed without any says nothing",
        arguments: [
            FeedUpdateHintsTests.rss(""),
            #"<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title></feed>"#,
            #"{"version": "https://jsonfeed.org/version/1.1", "title": "T", "items": []}"#
        ])
    func empty(_ text: String) throws {
        let hints = try feed(text).updateHints
        #expect(hints.isEmpty)
        #expect(hints == FeedUpdateHints())
        #expect(hints.syndicationInterval == nil)
    }

    @Test("hints inside an item are not the feed's")
    func itemLevelIgnored() throws {
        let parsed = try feed(
            """
            <rss version="2.0"><channel><title>T</title><item><title>one</title><ttl>5</ttl></item></channel></rss>
            """)
        #expect(parsed.updateHints.isEmpty)
        #expect(parsed.items.first?.custom["ttl"] == "5")
    }

    @Test("syndicationInterval: period ÷ frequency, in seconds")
    func syndicationInterval() {
        let seconds: [FeedUpdateHints.UpdatePeriod: Double] = [
            .hourly: 3600, .daily: 86400, .weekly: 604_800, .monthly: 2_592_000, .yearly: 31_536_000
        ]
        for period in FeedUpdateHints.UpdatePeriod.allCases {
            #expect(FeedUpdateHints(updatePeriod: period).syndicationInterval == seconds[period])
            #expect(
                FeedUpdateHints(updatePeriod: period, updateFrequency: 4).syndicationInterval == seconds[period]! / 4)
        }
        #expect(FeedUpdateHints(updateFrequency: 3).syndicationInterval == 28800)
        #expect(FeedUpdateHints(updatePeriod: .hourly, updateFrequency: 0).syndicationInterval == 3600)
        #expect(FeedUpdateHints(timeToLive: 60).syndicationInterval == nil)
        #expect(!FeedUpdateHints(timeToLive: 60).isEmpty)
        #expect(!FeedUpdateHints(skipDays: [7]).isEmpty)
    }

    static let full = rss(
        """
        <ttl>90</ttl><skipHours><hour>3</hour><hour>24</hour></skipHours><skipDays><day>Sunday</day><day>monday</day></skipDays>
        <sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>3</sy:updateFrequency>
        """, namespaces: #"xmlns:sy="\#(sy)""#)

    @Test("the streaming FeedReader gives the hints Feed(data:) gives")
    func streaming() throws {
        let data = Data(Self.full.utf8)
        let whole = try Feed(data: data)
        #expect(
            whole.updateHints
                == FeedUpdateHints(
                    timeToLive: 90, skipHours: [0, 3], skipDays: [1, 7],
                    updatePeriod: .hourly, updateFrequency: 3))
        var seen: [FeedUpdateHints] = []
        let streamed = try FeedReader().read(data: data) { _, feed in seen.append(feed.updateHints) }
        #expect(streamed.updateHints == whole.updateHints)
        #expect(seen == [whole.updateHints])
    }

    @Test("streaming: hints after the items are in the feed the read returns")
    func streamingHintsAfterItems() throws {
        let data = Data(
            """
            <rss version="2.0"><channel><title>T</title><item><title>one</title></item>
            <ttl>20</ttl></channel></rss>
            """.utf8)
        let streamed = try FeedReader().read(data: data) { _, _ in }
        #expect(streamed.updateHints.timeToLive == 20)
        #expect(try Feed(data: data).updateHints.timeToLive == 20)
    }

    @Test("Codable: the hints round-trip under updateHints; gofeed's JSON never has them")
    func codable() throws {
        let original = try feed(Self.full)
        let encoded = try JSONEncoder().encode(original)
        let object = try JSONValue(parsing: String(decoding: encoded, as: UTF8.self))
        guard case .object(let members) = object else {
            Issue.record("not an object")
            return
        }
        let hints = try #require(members.last { $0.key == "updateHints" }?.value)
        #expect(
            GofeedJSON.sorted(hints)
                == GofeedJSON.sorted(
                    try JSONValue(
                        parsing: """
                            {"ttl": 90, "skipHours": [0, 3], "skipDays": [1, 7], "updatePeriod": "hourly", "updateFrequency": 3}
                            """)))
        let decoded = try JSONDecoder().decode(Feed.self, from: encoded)
        #expect(decoded.updateHints == original.updateHints)
        #expect(decoded.gofeedJSON() == original.gofeedJSON())
        // gofeed's JSON, and Codable without hints, stay gofeed's.
        #expect(!String(decoding: original.gofeedJSON(), as: UTF8.self).contains("updateHints"))
        let plain = try feed(Self.rss(""))
        #expect(!String(decoding: try JSONEncoder().encode(plain), as: UTF8.self).contains("updateHints"))
        #expect(try JSONDecoder().decode(Feed.self, from: plain.gofeedJSON()).updateHints.isEmpty)
    }

    @Test("Codable: only what the hints hold is written")
    func codablePartial() throws {
        var feed = Feed(format: FeedFormat(.rss, version: "2.0"))
        feed.updateHints = FeedUpdateHints(skipDays: [6])
        let text = String(decoding: try JSONEncoder().encode(feed), as: UTF8.self)
        #expect(text.contains(#""updateHints":{"skipDays":[6]}"#))
        #expect(try JSONDecoder().decode(Feed.self, from: Data(text.utf8)).updateHints == feed.updateHints)
    }
}
