import Foundation
import IngestFeeds
import IngestCore
import Testing

@Suite("iTunes podcast tags, typed: episode, season, types, flags, durations")
struct ITunesPodcastTests {
    /// The sample feed of Apple's podcast RSS requirements ("Hiking Treks"), cut to
    /// the tags under test.
    static let appleSample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
             xmlns:content="http://purl.org/rss/1.0/modules/content/">
          <channel>
            <title>Hiking Treks</title>
            <link>https://www.apple.com/itunes/podcasts/</link>
            <language>en-us</language>
            <itunes:author>The Sunset Explorers</itunes:author>
            <description>Love to get outdoors and discover nature&apos;s treasures?</description>
            <itunes:type>serial</itunes:type>
            <itunes:owner>
              <itunes:name>Sunset Explorers</itunes:name>
              <itunes:email>mountainscape@icloud.com</itunes:email>
            </itunes:owner>
            <itunes:image href="https://applehosted.podcasts/hiking/artwork.jpg"/>
            <itunes:category text="Sports">
              <itunes:category text="Wilderness"/>
            </itunes:category>
            <itunes:explicit>false</itunes:explicit>
            <itunes:new-feed-url>https://example.com/hiking/new.rss</itunes:new-feed-url>
            <itunes:complete>Yes</itunes:complete>
            <item>
              <itunes:episodeType>trailer</itunes:episodeType>
              <itunes:title>Hiking Treks Trailer</itunes:title>
              <enclosure length="498537" type="audio/mpeg"
                url="http://example.com/podcasts/everything/AllAboutEverythingEpisode4.mp3"/>
              <guid>D03EEC9B-B1B4-475B-92C8-54F853FA2A22</guid>
              <pubDate>Tue, 8 Jan 2019 01:15:00 GMT</pubDate>
              <itunes:duration>1079</itunes:duration>
              <itunes:explicit>false</itunes:explicit>
            </item>
            <item>
              <itunes:episodeType>full</itunes:episodeType>
              <itunes:episode>4</itunes:episode>
              <itunes:season>2</itunes:season>
              <title>S02 EP04 Mt. Hood, Oregon</title>
              <enclosure length="8727310" type="audio/x-m4a" url="http://example.com/podcasts/everything/mthood.m4a"/>
              <guid>22BCFEBF-44FB-4A19-8E7E-7BA4D0A7C3F7</guid>
              <itunes:duration>1024</itunes:duration>
              <itunes:explicit>yes</itunes:explicit>
              <itunes:block>Yes</itunes:block>
            </item>
          </channel>
        </rss>
        """

    @Test("Apple's sample: show type, owner, image, categories, flags, new feed URL")
    func channel() throws {
        let parsed = try feed(Self.appleSample)
        let iTunes = try #require(parsed.iTunes)
        #expect(iTunes.type == .serial)
        #expect(iTunes.owner == ITunesOwner(email: "mountainscape@icloud.com", name: "Sunset Explorers"))
        #expect(iTunes.image == "https://applehosted.podcasts/hiking/artwork.jpg")
        #expect(iTunes.categories.first?.text == "Sports")
        #expect(iTunes.categories.first?.subcategory?.text == "Wilderness")
        #expect(iTunes.explicit == "false")
        #expect(iTunes.isExplicit == false)
        #expect(iTunes.isComplete == true)
        #expect(iTunes.isBlocked == nil)
        #expect(iTunes.newFeedURL == "https://example.com/hiking/new.rss")
    }

    @Test("Apple's sample: episode type, episode and season numbers, durations, flags")
    func items() throws {
        let parsed = try feed(Self.appleSample)
        try #require(parsed.items.count == 2)
        let trailer = try #require(parsed.items[0].iTunes)
        #expect(trailer.episodeType == .trailer)
        #expect(trailer.episode == nil)
        #expect(trailer.season == nil)
        #expect(trailer.durationSeconds == 1079)
        #expect(trailer.isExplicit == false)
        let full = try #require(parsed.items[1].iTunes)
        #expect(full.episodeType == .full)
        #expect(full.episode == 4)
        #expect(full.episodeText == "4")
        #expect(full.season == 2)
        #expect(full.durationSeconds == 1024)
        #expect(full.isExplicit == true)
        #expect(full.isBlocked == true)
    }

    @Test(
        "a duration in every form; garbage, signs, overflow and empty text are nil",
        arguments: [
            ("3600", 3600), ("60:00", 3600), ("1:00:00", 3600), ("01:00:00", 3600), ("1:00:00.5", 3601),
            ("1:00:00.4", 3600), ("59.5", 60), (" 90:00 ", 5400), ("0", 0),
            ("", nil), ("abc", nil), ("-5", nil), ("+5", nil), ("1:-5", nil), ("1:75", nil), ("1::00", nil),
            ("1:00:00:00", nil), ("1.5:00", nil), ("5.", nil), (".5", nil), ("1 h", nil),
            ("99999999999999999999", nil), ("153722867280912931:00", nil), ("9223372036854775807.5", nil)
        ] as [(String, Int?)])
    func durations(text: String, seconds: Int?) {
        var iTunes = ITunesItemExtension()
        iTunes.duration = text
        #expect(iTunes.durationSeconds == seconds, "\(text)")
    }

    @Test(
        "episode and season are whole numbers an Int holds; other text keeps its raw value",
        arguments: [
            ("12", 12), ("0", 0), (" 7 ", 7), ("-1", nil), ("1.5", nil), ("x", nil),
            ("99999999999999999999", nil)
        ] as [(String, Int?)])
    func episodeNumbers(text: String, number: Int?) throws {
        let parsed = try feed(
            """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><item>
            <itunes:episode>\(text)</itunes:episode><itunes:season>\(text)</itunes:season></item></channel></rss>
            """)
        let iTunes = try #require(parsed.items.first?.iTunes)
        #expect(iTunes.episode == number)
        #expect(iTunes.season == number)
        #expect(iTunes.episodeText == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(
        "explicit: yes/true/explicit are true, no/false/clean false, in any case; other text nil",
        arguments: [
            ("yes", true), ("Yes", true), ("TRUE", true), ("explicit", true), ("no", false),
            ("false", false), ("Clean", false), ("maybe", nil)
        ] as [(String, Bool?)])
    func explicitFlag(text: String, flag: Bool?) {
        var iTunes = ITunesItemExtension()
        iTunes.explicit = text
        #expect(iTunes.isExplicit == flag)
        #expect(iTunes.explicit == text)
    }

    @Test("empty elements are absent, and an unknown episode type is kept as written")
    func emptyAndUnknown() throws {
        let parsed = try feed(
            """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
            <itunes:type></itunes:type><item><itunes:episode/><itunes:season> </itunes:season>
            <itunes:episodeType>Teaser</itunes:episodeType><itunes:duration></itunes:duration></item></channel></rss>
            """)
        #expect(parsed.iTunes?.type == nil)
        let iTunes = try #require(parsed.items.first?.iTunes)
        #expect(iTunes.episodeText == nil)
        #expect(iTunes.episode == nil)
        #expect(iTunes.season == nil)
        #expect(iTunes.episodeType == ITunesEpisodeType(rawValue: "Teaser"))
        #expect(iTunes.episodeType != .trailer)
        #expect(iTunes.durationSeconds == nil)
    }

    @Test("an undeclared itunes: prefix still fills iTunes (read in recovering mode)")
    func undeclaredPrefix() throws {
        let parsed = try feed(
            """
            <rss version="2.0"><channel><title>Show</title><itunes:type>episodic</itunes:type>
            <itunes:owner><itunes:name>Ann</itunes:name></itunes:owner>
            <item><title>One</title><itunes:episode>3</itunes:episode><itunes:season>1</itunes:season>
            <itunes:duration>1:02:03</itunes:duration><itunes:explicit>clean</itunes:explicit></item>
            </channel></rss>
            """)
        #expect(!parsed.wellFormed)
        #expect(parsed.iTunes?.type == .episodic)
        #expect(parsed.iTunes?.owner?.name == "Ann")
        let iTunes = try #require(parsed.items.first?.iTunes)
        #expect(iTunes.episode == 3)
        #expect(iTunes.season == 1)
        #expect(iTunes.durationSeconds == 3723)
        #expect(iTunes.isExplicit == false)
        #expect(parsed.items.first?.extensions["itunes"]?["episode"]?.first?.value == "3")
    }

    @Test(
        "the iTunes namespace in another case or over https is iTunes too; a look-alike is not",
        arguments: [
            "http://www.itunes.com/dtds/Podcast-1.0.dtd", "HTTP://WWW.ITUNES.COM/DTDS/PODCAST-1.0.DTD",
            "https://www.itunes.com/dtds/podcast-1.0.dtd", "http://www.itunes.com/dtds/podcast-1.0.dtd/x"
        ])
    func namespaceSpellings(uri: String) throws {
        let parsed = try feed(
            """
            <rss version="2.0" xmlns:it="\(uri)"><channel><title>Show</title><it:type>serial</it:type>
            <item><title>One</title><it:episode>3</it:episode><it:duration>60:00</it:duration></item>
            </channel></rss>
            """)
        #expect(parsed.wellFormed)
        if uri.hasSuffix("/x") {
            #expect(parsed.iTunes == nil)
            #expect(parsed.items.first?.iTunes == nil)
            #expect(parsed.items.first?.extensions["it"]?["episode"]?.first?.value == "3")
        } else {
            #expect(parsed.iTunes?.type == .serial)
            #expect(parsed.items.first?.iTunes?.episode == 3)
            #expect(parsed.items.first?.iTunes?.durationSeconds == 3600)
            #expect(parsed.items.first?.extensions["itunes"]?["episode"]?.first?.value == "3")
        }
    }

    @Test("gofeed's JSON writes episode, season, episodeType and type in gofeed's places; Codable keeps them")
    func json() throws {
        let parsed = try feed(Self.appleSample)
        let item = String(decoding: parsed.items[1].gofeedJSON(), as: UTF8.self)
        #expect(
            item.contains(
                #""itunesExt":{"block":"Yes","duration":"1024","explicit":"yes","episode":"4","#
                    + #""season":"2","episodeType":"full"}"#))
        let channel = String(decoding: parsed.gofeedJSON(), as: UTF8.self)
        #expect(channel.contains(#""newFeedUrl":"https://example.com/hiking/new.rss","type":"serial"}"#))
        let decoded = try JSONDecoder().decode(Feed.self, from: try JSONEncoder().encode(parsed))
        #expect(decoded.iTunes == parsed.iTunes)
        #expect(decoded.items.map(\.iTunes) == parsed.items.map(\.iTunes))
        #expect(decoded.items[1].iTunes?.episode == 4)
        #expect(decoded.iTunes?.type == .serial)
    }
}
