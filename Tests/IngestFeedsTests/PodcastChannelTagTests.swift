import Foundation
import IngestFeeds
import Testing

/// An RSS feed declaring the Podcasting 2.0 namespace, with `channel` inside its
/// channel and `item` as its one item (when not empty).
func podcastFeed(channel: String = "", item: String = "") throws -> Feed {
    try feed(
        """
        <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Show</title>
        \(channel)
        \(item.isEmpty ? "" : "<item><title>Episode</title>\(item)</item>")
        </channel></rss>
        """)
}

@Suite("Podcasting 2.0 channel tags, typed (the namespace's own examples)")
struct PodcastChannelTagTests {
    @Test("locked, guid, medium, images, podping, updateFrequency, chat")
    func singleTags() throws {
        let parsed = try podcastFeed(
            channel: """
                <podcast:locked owner="email@example.com">yes</podcast:locked>
                <podcast:guid>917393e3-1b1e-5cef-ace4-edaa54e1f810</podcast:guid>
                <podcast:medium>music</podcast:medium>
                <podcast:images srcset="https://example.com/images/pci_avatar-massive.jpg 1500w,
                    https://example.com/images/pci_avatar-middle.jpg 600w" />
                <podcast:podping usesPodping="true"/>
                <podcast:updateFrequency rrule="FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;COUNT=10"
                    dtstart="2023-08-28T00:00:00.000Z">
                    Every other Monday for 10 episodes starting on Aug 28, 2023
                </podcast:updateFrequency>
                <podcast:chat server="irc.zeronode.net" protocol="irc" accountId="@jsmith" space="#myawesomepodcast"/>
                """)
        let podcast = try #require(parsed.podcast)
        #expect(podcast.locked?.isLocked == true)
        #expect(podcast.locked?.owner == "email@example.com")
        #expect(podcast.guid == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        #expect(podcast.medium == "music")
        #expect(podcast.imagesSrcset?.hasPrefix("https://example.com/images/pci_avatar-massive.jpg 1500w,") == true)
        #expect(podcast.usesPodping == true)
        let frequency = try #require(podcast.updateFrequency)
        #expect(frequency.text == "Every other Monday for 10 episodes starting on Aug 28, 2023")
        #expect(frequency.rrule == "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;COUNT=10")
        #expect(frequency.dtstart == "2023-08-28T00:00:00.000Z")
        #expect(frequency.dtstartParsed?.rfc3339 == "2023-08-28T00:00:00Z")
        #expect(frequency.complete == nil)
        #expect(podcast.chat?.server == "irc.zeronode.net")
        #expect(podcast.chat?.chatProtocol == "irc")
        #expect(podcast.chat?.accountId == "@jsmith")
        #expect(podcast.chat?.space == "#myawesomepodcast")
        #expect(
            try podcastFeed(
                channel: """
                    <podcast:updateFrequency complete="true">That's all folks!</podcast:updateFrequency>
                    """
            ).podcast?.updateFrequency?.complete == true)
    }

    @Test("funding, persons, locations, trailers, license")
    func showTags() throws {
        let parsed = try podcastFeed(
            channel: """
                <podcast:funding url="https://www.example.com/donations">Support the show!</podcast:funding>
                <podcast:funding url="https://www.example.com/members">Become a member!</podcast:funding>
                <podcast:person href="https://example.com/johnsmith/blog"
                    img="http://example.com/images/johnsmith.jpg">John Smith</podcast:person>
                <podcast:person group="writing" role="guest"
                    href="https://www.wikipedia/alicebrown">Alice Brown</podcast:person>
                <podcast:location geo="geo:30.2672,97.7431" osm="R113314">Austin, TX</podcast:location>
                <podcast:location rel="creator" country="US"
                    geo="geo:39.7837304,-100.445882">United States</podcast:location>
                <podcast:trailer pubdate="Thu, 01 Apr 2021 08:00:00 EST" url="https://example.org/trailers/teaser"
                    length="12345678" type="audio/mp3">Coming April 1st, 2021</podcast:trailer>
                <podcast:trailer pubdate="Thu, 01 Apr 2021 08:00:00 EST" url="https://example.org/trailers/season4teaser"
                    length="12345678" type="video/mp4" season="4">Season 4: Race for the Whitehouse</podcast:trailer>
                <podcast:license url="https://example.org/mypodcastlicense/full.pdf">my-podcast-license-v1</podcast:license>
                """)
        let podcast = try #require(parsed.podcast)
        #expect(podcast.funding.map(\.url) == ["https://www.example.com/donations", "https://www.example.com/members"])
        #expect(podcast.funding.map(\.text) == ["Support the show!", "Become a member!"])
        #expect(podcast.persons.map(\.name) == ["John Smith", "Alice Brown"])
        #expect(podcast.persons[0].img == "http://example.com/images/johnsmith.jpg")
        #expect(podcast.persons[0].role == nil)
        #expect(podcast.persons[1].role == "guest")
        #expect(podcast.persons[1].group == "writing")
        #expect(podcast.persons[1].href == "https://www.wikipedia/alicebrown")
        #expect(podcast.locations.count == 2)
        #expect(podcast.locations[0].name == "Austin, TX")
        #expect(podcast.locations[0].geo == "geo:30.2672,97.7431")
        #expect(podcast.locations[0].osm == "R113314")
        #expect(podcast.locations[1].rel == "creator")
        #expect(podcast.locations[1].country == "US")
        #expect(podcast.trailers.count == 2)
        let trailer = podcast.trailers[1]
        #expect(trailer.title == "Season 4: Race for the Whitehouse")
        #expect(trailer.url == "https://example.org/trailers/season4teaser")
        #expect(trailer.pubdate == "Thu, 01 Apr 2021 08:00:00 EST")
        #expect(trailer.pubdateParsed?.rfc3339 == "2021-04-01T13:00:00Z")
        #expect(trailer.length == 12_345_678)
        #expect(trailer.type == "video/mp4")
        #expect(trailer.season == 4)
        #expect(podcast.trailers[0].season == nil)
        #expect(podcast.license?.name == "my-podcast-license-v1")
        #expect(podcast.license?.url == "https://example.org/mypodcastlicense/full.pdf")
    }

    @Test("value with recipients, at the channel")
    func value() throws {
        let parsed = try podcastFeed(
            channel: """
                <podcast:value type="lightning" method="keysend" suggested="0.00000005000">
                    <podcast:valueRecipient name="Alice (Podcaster)" type="node"
                        address="02d5c1bf8b940dc9cadca86d1b0a3c37fbe39cee4c7e839e33bef9174531d27f52" split="40"/>
                    <podcast:valueRecipient name="Bob (Podcaster)" type="node"
                        address="032f4ffbbafffbe51726ad3c164a3d0d37ec27bc67b29a159b0f49ae8ac21b8508" split="40"/>
                    <podcast:valueRecipient name="Carol (Producer)" type="node"
                        address="02dd306e68c46681aa21d88a436fb35355a8579dd30201581cefa17cb179fc4c15" split="15"/>
                    <podcast:valueRecipient name="Hosting Provider" type="node" customKey="112111100"
                        customValue="wal_ZmqFg13L8j"
                        address="03ae9f91a0cb8ff43840e3c322c4c61f019d8c1c3cea15a25cfc425ac605e61a4a" split="5" fee="true"/>
                </podcast:value>
                """)
        let value = try #require(parsed.podcast?.values.first)
        #expect(value.type == "lightning")
        #expect(value.method == "keysend")
        #expect(value.suggested == "0.00000005000")
        #expect(value.recipients.map(\.split) == [40, 40, 15, 5])
        #expect(value.recipients.map(\.fee) == [nil, nil, nil, true])
        #expect(value.recipients[0].name == "Alice (Podcaster)")
        #expect(value.recipients[0].type == "node")
        #expect(value.recipients[0].address == "02d5c1bf8b940dc9cadca86d1b0a3c37fbe39cee4c7e839e33bef9174531d27f52")
        #expect(value.recipients[3].customKey == "112111100")
        #expect(value.recipients[3].customValue == "wal_ZmqFg13L8j")
        #expect(value.timeSplits.isEmpty)
    }

    @Test("remote items: in the channel, a podroll, a publisher")
    func remoteItems() throws {
        let parsed = try podcastFeed(
            channel: """
                <podcast:remoteItem feedGuid="917393e3-1b1e-5cef-ace4-edaa54e1f810" itemGuid="asdf089j0-ep240-20230510"
                    medium="music"/>
                <podcast:podroll>
                    <podcast:remoteItem feedGuid="28ba9a8b-3e0b-5f2c-9c6b-b9f5a2b4b5e4"/>
                    <podcast:remoteItem feedUrl="https://feeds.example.org/other.xml"/>
                </podcast:podroll>
                <podcast:publisher>
                    <podcast:remoteItem medium="publisher" feedGuid="003af0a0-6a45-55cf-b765-68e3d349551a"
                        feedUrl="https://agilesetmedia.com/assets/static/agilesetmedia.xml"/>
                </podcast:publisher>
                """)
        let podcast = try #require(parsed.podcast)
        #expect(podcast.remoteItems.count == 1)
        #expect(podcast.remoteItems[0].feedGuid == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        #expect(podcast.remoteItems[0].itemGuid == "asdf089j0-ep240-20230510")
        #expect(podcast.remoteItems[0].medium == "music")
        #expect(podcast.podroll.map(\.feedGuid) == ["28ba9a8b-3e0b-5f2c-9c6b-b9f5a2b4b5e4", nil])
        #expect(podcast.podroll.map(\.feedUrl) == [nil, "https://feeds.example.org/other.xml"])
        #expect(podcast.publisher?.medium == "publisher")
        #expect(podcast.publisher?.feedGuid == "003af0a0-6a45-55cf-b765-68e3d349551a")
        #expect(podcast.publisher?.feedUrl == "https://agilesetmedia.com/assets/static/agilesetmedia.xml")
    }

    @Test("block, txt, socialInteract, image")
    func platformTags() throws {
        let parsed = try podcastFeed(
            channel: """
                <podcast:block>yes</podcast:block>
                <podcast:block id="google">no</podcast:block>
                <podcast:txt>naj3eEZaWVVY9a38uhX8FekACyhtqP4JN</podcast:txt>
                <podcast:txt purpose="verify">S6lpp-7ZCn8-dZfGc-OoyaG</podcast:txt>
                <podcast:socialInteract protocol="disabled" />
                <podcast:image alt="An antenna emanating signal waves" purpose="artwork social" type="image/jpeg"
                    aspect-ratio="16/9" width="1920" href="https://example.com/images/pci_landscape-massive.jpg"/>
                """)
        let podcast = try #require(parsed.podcast)
        #expect(podcast.blocks.map(\.isBlocked) == [true, false])
        #expect(podcast.blocks.map(\.id) == [nil, "google"])
        #expect(podcast.txts.map(\.text) == ["naj3eEZaWVVY9a38uhX8FekACyhtqP4JN", "S6lpp-7ZCn8-dZfGc-OoyaG"])
        #expect(podcast.txts.map(\.purpose) == [nil, "verify"])
        #expect(podcast.socialInteracts.count == 1)
        #expect(podcast.socialInteracts[0].socialProtocol == "disabled")
        #expect(podcast.socialInteracts[0].uri == nil)
        let image = try #require(podcast.images.first)
        #expect(image.href == "https://example.com/images/pci_landscape-massive.jpg")
        #expect(image.alt == "An antenna emanating signal waves")
        #expect(image.aspectRatio == "16/9")
        #expect(image.width == 1920)
        #expect(image.height == nil)
        #expect(image.type == "image/jpeg")
        #expect(image.purpose == "artwork social")
    }

    @Test("liveItem: attributes, dates, title, guid, content links and alternate enclosures")
    func liveItem() throws {
        let parsed = try podcastFeed(
            channel: """
                <podcast:liveItem status="live" start="2021-09-26T07:30:00.000-0600" end="2021-09-26T09:30:00.000-0600">
                    <title>Podcasting 2.0 Live Show</title>
                    <guid isPermaLink="true">https://example.com/live</guid>
                    <podcast:person href="https://example.com/adam"
                        img="https://example.com/images/adamcurry.jpg">Adam Curry</podcast:person>
                    <podcast:alternateEnclosure type="audio/mpeg" length="312" default="true">
                        <podcast:source uri="https://example.com/pc20/livestream" />
                    </podcast:alternateEnclosure>
                    <enclosure url="https://example.com/pc20/livestream?format=.mp3" type="audio/mpeg" length="312" />
                    <podcast:contentLink href="https://www.youtube.com/pc20/livestream">YouTube!</podcast:contentLink>
                    <podcast:contentLink href="https://example.com/html/livestream">Listen Live!</podcast:contentLink>
                </podcast:liveItem>
                """)
        let live = try #require(parsed.podcast?.liveItems.first)
        #expect(live.status == "live")
        #expect(live.start == "2021-09-26T07:30:00.000-0600")
        #expect(live.startParsed?.rfc3339 == "2021-09-26T13:30:00Z")
        #expect(live.endParsed?.rfc3339 == "2021-09-26T15:30:00Z")
        #expect(live.title == "Podcasting 2.0 Live Show")
        #expect(live.guid == "https://example.com/live")
        #expect(
            live.contentLinks.map(\.href) == [
                "https://www.youtube.com/pc20/livestream",
                "https://example.com/html/livestream"
            ])
        #expect(live.contentLinks.map(\.text) == ["YouTube!", "Listen Live!"])
        #expect(live.alternateEnclosures.first?.isDefault == true)
        #expect(live.alternateEnclosures.first?.sources.map(\.uri) == ["https://example.com/pc20/livestream"])
        // What is not typed stays in the generic tree.
        let element = try #require(parsed.extensions["podcast"]?["liveItem"]?.first)
        #expect(element.child("person")?.value == "Adam Curry")
        #expect(element.child("enclosure")?.attributes["url"] == "https://example.com/pc20/livestream?format=.mp3")
    }
}
