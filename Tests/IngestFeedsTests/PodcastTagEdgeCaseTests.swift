import Foundation
import IngestCore
import IngestFeeds
import Testing

@Suite("Podcasting 2.0: absent tags, bad numbers, missing attributes, JSON")
struct PodcastTagEdgeCaseTests {
    @Test("no podcast: element, no typed view; an unknown one gives an empty view and stays in the tree")
    func absence() throws {
        let plain = try feed(
            """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title>
            <itunes:author>Jo</itunes:author><item><title>I</title><itunes:duration>12</itunes:duration></item>
            </channel></rss>
            """)
        #expect(plain.iTunes != nil)
        #expect(plain.podcast == nil)
        #expect(plain.items.first?.podcast == nil)
        #expect(!String(decoding: plain.gofeedJSON(), as: UTF8.self).contains("podcastExt"))
        let unknown = try podcastFeed(
            channel: "<podcast:futureTag x=\"1\">later</podcast:futureTag>",
            item: "<podcast:otherTag/>")
        #expect(unknown.podcast == PodcastFeedExtension())
        #expect(unknown.items.first?.podcast == PodcastItemExtension())
        #expect(unknown.extensions["podcast"]?["futureTag"]?.first?.value == "later")
        #expect(unknown.items.first?.extensions["podcast"]?["otherTag"]?.count == 1)
    }

    @Test(
        "times: not numbers, negative, NaN, infinite, hexadecimal or overflowing are nil; the entry is kept",
        arguments: ["abc", "-5", "NaN", "nan", "inf", "-infinity", "1e400", "0x10", "", "1:30", "12 s"])
    func badTimes(_ text: String) throws {
        let parsed = try podcastFeed(
            item: """
                <podcast:soundbite startTime="\(text)" duration="\(text)">Bite</podcast:soundbite>
                <podcast:value type="lightning" method="keysend">
                    <podcast:valueTimeSplit startTime="\(text)" duration="\(text)" remoteStartTime="\(text)">
                        <podcast:remoteItem feedGuid="g"/>
                    </podcast:valueTimeSplit>
                </podcast:value>
                """)
        let podcast = try #require(parsed.items.first?.podcast)
        #expect(podcast.soundbites.count == 1)
        #expect(podcast.soundbites[0].startTime == nil)
        #expect(podcast.soundbites[0].duration == nil)
        #expect(podcast.soundbites[0].title == "Bite")
        let split = try #require(podcast.values.first?.timeSplits.first)
        #expect(split.startTime == nil)
        #expect(split.duration == nil)
        #expect(split.remoteStartTime == nil)
        #expect(split.remoteItem?.feedGuid == "g")
    }

    @Test("times: white space trimmed, exponents read, negative zero is zero")
    func goodTimes() throws {
        let parsed = try podcastFeed(
            item: """
                <podcast:soundbite startTime=" 12.5 " duration="1e2"/><podcast:soundbite startTime="-0" duration="0"/>
                """)
        let soundbites = try #require(parsed.items.first?.podcast?.soundbites)
        #expect(soundbites.map(\.startTime) == [12.5, 0])
        #expect(soundbites.map(\.duration) == [100, 0])
        #expect(soundbites[1].startTime?.sign == .plus)
    }

    @Test("whole numbers: fractions, words, negative sizes and overflow are nil")
    func badIntegers() throws {
        let overflow = "99999999999999999999"
        let parsed = try podcastFeed(
            channel: """
                <podcast:trailer url="https://example.org/t1" length="-1" season="x" pubdate="soon">One</podcast:trailer>
                <podcast:trailer url="https://example.org/t2" length="\(overflow)"
                    season="\(overflow)">Two</podcast:trailer>
                <podcast:socialInteract protocol="activitypub" uri="https://example.org/p" priority="1.5"/>
                """,
            item: """
                <podcast:season>3.5</podcast:season>
                <podcast:episode>NaN</podcast:episode>
                <podcast:alternateEnclosure type="audio/mpeg" length="\(overflow)" height="-1" bitrate="fast"
                    default="maybe"/>
                <podcast:image href="https://example.org/i.jpg" width="wide" height="\(overflow)"/>
                """)
        let trailers = try #require(parsed.podcast?.trailers)
        #expect(trailers.map(\.length) == [nil, nil])
        #expect(trailers.map(\.season) == [nil, nil])
        #expect(trailers[0].pubdate == "soon")
        #expect(trailers[0].pubdateParsed == nil)
        #expect(parsed.podcast?.socialInteracts.first?.priority == nil)
        let item = try #require(parsed.items.first?.podcast)
        // A season or an episode with nothing usable is no season or episode at all.
        #expect(item.season == nil)
        #expect(item.episode == nil)
        let enclosure = try #require(item.alternateEnclosures.first)
        #expect(enclosure.type == "audio/mpeg")
        #expect(enclosure.length == nil)
        #expect(enclosure.height == nil)
        #expect(enclosure.bitrate == nil)
        #expect(enclosure.isDefault == nil)
        #expect(item.images.first?.width == nil)
        #expect(item.images.first?.height == nil)
        // A season with a name but a bad number keeps the name.
        let named = try podcastFeed(item: "<podcast:season name=\"Finale\">x</podcast:season>")
        #expect(named.items.first?.podcast?.season?.name == "Finale")
        #expect(named.items.first?.podcast?.season?.number == nil)
    }

    @Test("flags: yes/true and no/false in any case; anything else nil")
    func flags() throws {
        let parsed = try podcastFeed(
            channel: """
                <podcast:locked>maybe</podcast:locked><podcast:block>YES</podcast:block><podcast:block>False</podcast:block>
                <podcast:podping usesPodping="sometimes"/>
                """)
        #expect(parsed.podcast?.locked != nil)
        #expect(parsed.podcast?.locked?.isLocked == nil)
        #expect(parsed.podcast?.blocks.map(\.isBlocked) == [true, false])
        #expect(parsed.podcast?.usesPodping == nil)
    }

    @Test("remotePercentage is held to 0…100, as the namespace says")
    func remotePercentage() throws {
        let parsed = try podcastFeed(
            item: """
                <podcast:value type="lightning" method="keysend">
                    <podcast:valueTimeSplit startTime="1" duration="2" remotePercentage="150">
                        <podcast:remoteItem feedGuid="a"/>
                    </podcast:valueTimeSplit>
                    <podcast:valueTimeSplit startTime="1" duration="2" remotePercentage="-3">
                        <podcast:remoteItem feedGuid="b"/>
                    </podcast:valueTimeSplit>
                    <podcast:valueTimeSplit startTime="1" duration="2" remotePercentage="most">
                        <podcast:remoteItem feedGuid="c"/>
                    </podcast:valueTimeSplit>
                </podcast:value>
                """)
        #expect(parsed.items.first?.podcast?.values.first?.timeSplits.map(\.remotePercentage) == [100, 0, nil])
    }

    @Test("an entry without what it points at is skipped; other missing attributes are nil")
    func missingRequiredAttributes() throws {
        let parsed = try podcastFeed(
            channel: """
                <podcast:funding>No link</podcast:funding>
                <podcast:person href="https://example.org/nobody"/>
                <podcast:person>   </podcast:person>
                <podcast:trailer pubdate="Thu, 01 Apr 2021 08:00:00 EST">No file</podcast:trailer>
                <podcast:location/>
                <podcast:location geo="geo:1,2"/>
                <podcast:txt purpose="verify"/>
                <podcast:license/>
                <podcast:podroll><podcast:remoteItem itemGuid="only-an-item"/></podcast:podroll>
                <podcast:publisher><podcast:remoteItem medium="publisher"/></podcast:publisher>
                <podcast:socialInteract accountId="@nobody"/>
                <podcast:chat space="#room"/>
                <podcast:image alt="no href"/>
                <podcast:value>
                    <podcast:valueRecipient name="No address" split="50"/>
                    <podcast:valueRecipient address="abc"/>
                </podcast:value>
                <podcast:liveItem><podcast:contentLink>No href</podcast:contentLink></podcast:liveItem>
                """,
            item: """
                <podcast:transcript type="text/vtt"/>
                <podcast:transcript url="https://example.org/t.srt"/>
                <podcast:chapters type="application/json+chapters"/>
                <podcast:alternateEnclosure><podcast:source contentType="x/y"/><podcast:integrity/>
                    </podcast:alternateEnclosure>
                """)
        let podcast = try #require(parsed.podcast)
        #expect(podcast.funding.isEmpty)
        #expect(podcast.persons.isEmpty)
        #expect(podcast.trailers.isEmpty)
        #expect(podcast.locations.map(\.geo) == ["geo:1,2"])
        #expect(podcast.locations.first?.name == nil)
        #expect(podcast.txts.isEmpty)
        #expect(podcast.license == nil)
        #expect(podcast.podroll.isEmpty)
        #expect(podcast.publisher == nil)
        #expect(podcast.socialInteracts.isEmpty)
        #expect(podcast.chat == nil)
        #expect(podcast.images.isEmpty)
        // A value block is kept without its required type and method; a recipient without an address is not.
        let value = try #require(podcast.values.first)
        #expect(value.type == nil)
        #expect(value.method == nil)
        #expect(value.recipients.map(\.address) == ["abc"])
        #expect(value.recipients.first?.split == nil)
        // A live item is kept without its required status and start.
        let live = try #require(podcast.liveItems.first)
        #expect(live.status == nil)
        #expect(live.startParsed == nil)
        #expect(live.contentLinks.isEmpty)
        let item = try #require(parsed.items.first?.podcast)
        #expect(item.transcripts.map(\.url) == ["https://example.org/t.srt"])
        #expect(item.transcripts.first?.type == nil)
        #expect(item.chapters == nil)
        let enclosure = try #require(item.alternateEnclosures.first)
        #expect(enclosure.type == nil)
        #expect(enclosure.sources.isEmpty)
        #expect(enclosure.integrity == nil)
        // Nothing is taken out of the generic tree.
        #expect(parsed.extensions["podcast"]?["funding"]?.first?.value == "No link")
        #expect(parsed.items.first?.extensions["podcast"]?["transcript"]?.count == 2)
    }

    static let richFeed = """
        <podcast:locked owner="o@example.org">yes</podcast:locked>
        <podcast:funding url="https://example.org/give">Give</podcast:funding>
        <podcast:trailer url="https://example.org/t.mp3" pubdate="Thu, 01 Apr 2021 08:00:00 EST"
            length="10">T</podcast:trailer>
        <podcast:value type="lightning" method="keysend" suggested="0.00000005000">
            <podcast:valueRecipient name="A" type="node" address="abc" split="90.5" fee="false"/>
            <podcast:valueTimeSplit startTime="60" duration="237.5" remotePercentage="95">
                <podcast:remoteItem feedGuid="g" itemGuid="i"/>
            </podcast:valueTimeSplit>
        </podcast:value>
        <podcast:liveItem status="pending" start="2021-09-26T07:30:00.000-0600">
            <podcast:contentLink href="https://example.org/live">Live</podcast:contentLink>
        </podcast:liveItem>
        <podcast:podroll><podcast:remoteItem feedGuid="r"/></podcast:podroll>
        <podcast:podping usesPodping="true"/>
        <podcast:socialInteract protocol="activitypub" uri="https://example.org/p" priority="2"/>
        <podcast:chat server="irc.example.org" protocol="irc"/>
        <podcast:block id="apple">yes</podcast:block>
        <podcast:updateFrequency rrule="FREQ=DAILY" dtstart="2025-01-01T00:00:00.000Z">Daily</podcast:updateFrequency>
        """

    static let richItem = """
        <podcast:transcript url="https://example.org/t.vtt" type="text/vtt" rel="captions"/>
        <podcast:soundbite startTime="73.25" duration="60">Bite</podcast:soundbite>
        <podcast:person role="host" img="https://example.org/p.jpg">Pat</podcast:person>
        <podcast:season name="One">1</podcast:season>
        <podcast:episode display="Pilot">0.5</podcast:episode>
        <podcast:alternateEnclosure type="audio/opus" length="100" bitrate="96000.5" default="true">
            <podcast:source uri="ipfs://x" contentType="audio/opus"/><podcast:integrity type="sri" value="sha384-x"/>
        </podcast:alternateEnclosure>
        """

    @Test("Codable: gofeed's JSON with podcastExt decodes back to the same typed views")
    func codableRoundTrip() throws {
        let original = try podcastFeed(channel: Self.richFeed, item: Self.richItem)
        #expect(original.podcast?.values.first?.recipients.first?.split == 90.5)
        let encodings = [
            original.gofeedJSON(), original.gofeedJSON(prettyPrinted: true),
            try JSONEncoder().encode(original)
        ]
        for data in encodings {
            let decoded = try JSONDecoder().decode(Feed.self, from: data)
            #expect(decoded.podcast == original.podcast)
            #expect(decoded.items.first?.podcast == original.items.first?.podcast)
        }
        let item = try #require(original.items.first)
        let decodedItem = try JSONDecoder().decode(FeedItem.self, from: item.gofeedJSON())
        #expect(decodedItem.podcast == item.podcast)
        #expect(decodedItem.podcast?.alternateEnclosures.first?.integrity?.value == "sha384-x")
    }

    @Test("Codable: a view decoded from JSON that lacks members has them empty, as the writer leaves them out")
    func decodingLeavesAbsentMembersEmpty() throws {
        let funding = try JSONDecoder().decode(PodcastFunding.self, from: Data(#"{"text":"Support"}"#.utf8))
        #expect(funding.url == "" && funding.text == "Support")
        let value = try JSONDecoder().decode(PodcastValue.self, from: Data(#"{"type":"lightning"}"#.utf8))
        #expect(value.type == "lightning" && value.recipients.isEmpty && value.timeSplits.isEmpty)
        let enclosure = try JSONDecoder().decode(
            PodcastAlternateEnclosure.self, from: Data(#"{"default":true,"bitrate":60,"length":7}"#.utf8))
        #expect(enclosure.isDefault == true && enclosure.bitrate == 60 && enclosure.length == 7)
        let written = try JSONEncoder().encode(enclosure)
        #expect(try JSONDecoder().decode(PodcastAlternateEnclosure.self, from: written) == enclosure)
        guard case .object(let members) = try JSONValue(parsing: String(decoding: written, as: UTF8.self)) else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key).sorted() == ["bitrate", "default", "length"])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PodcastSeason.self, from: Data(#"{"number":"one"}"#.utf8))
        }
    }

    @Test("gofeed's JSON: podcastExt right after itunesExt, numbers as numbers, empty members left out")
    func gofeedJSONShape() throws {
        let parsed = try feed(
            """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"
                 xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title>
            <itunes:author>Jo</itunes:author><podcast:guid>g</podcast:guid>
            <item><itunes:episode>3</itunes:episode>\(Self.richItem)</item></channel></rss>
            """)
        guard case .object(let members) = parsed.gofeedJSONValue else {
            Issue.record("not an object")
            return
        }
        let keys = members.map(\.key)
        let itunes = try #require(keys.firstIndex(of: "itunesExt"))
        #expect(keys[itunes + 1] == "podcastExt")
        #expect(members[itunes + 1].value == .object([("guid", .string("g"))]))
        let text = String(decoding: try #require(parsed.items.first).gofeedJSON(), as: UTF8.self)
        #expect(text.contains(#""podcastExt":{"transcripts":[{"url":"https://example.org/t.vtt","type":"text/vtt","#))
        #expect(text.contains(#""soundbites":[{"startTime":73.25,"duration":60,"title":"Bite"}]"#))
        #expect(text.contains(#""episode":{"number":0.5,"display":"Pilot"}"#))
        #expect(text.contains(#""bitrate":96000.5,"default":true"#))
        #expect(text.contains(#""season":{"number":1,"name":"One"}"#))
        let feedText = String(decoding: try podcastFeed(channel: Self.richFeed).gofeedJSON(), as: UTF8.self)
        #expect(feedText.contains(#""startParsed":"2021-09-26T13:30:00Z""#))
        #expect(feedText.contains(#""pubdateParsed":"2021-04-01T13:00:00Z""#))
        #expect(
            feedText.contains(
                #""socialInteracts":[{"uri":"https://example.org/p","protocol":"activitypub","priority":2}]"#))
        #expect(feedText.contains(#""locked":{"locked":true,"owner":"o@example.org"}"#))
    }
}
