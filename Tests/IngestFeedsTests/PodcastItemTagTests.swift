import Foundation
import IngestFeeds
import Testing

@Suite("Podcasting 2.0 item tags, typed (the namespace's own examples)")
struct PodcastItemTagTests {
    @Test("transcripts, chapters, soundbites, season, episode, license")
    func episodeTags() throws {
        let parsed = try podcastFeed(
            item: """
                <podcast:transcript url="https://example.com/episode1/transcript.vtt" type="text/vtt" rel="captions"/>
                <podcast:transcript url="https://example.com/episode1/transcript.json" type="application/json"
                    language="es"/>
                <podcast:chapters url="https://example.com/episode1/chapters.json" type="application/json+chapters"/>
                <podcast:soundbite startTime="73.0" duration="60.0" />
                <podcast:soundbite startTime="1234.5" duration="42.25">Why the Podcast Namespace Matters</podcast:soundbite>
                <podcast:season name="Race for the Whitehouse 2020">3</podcast:season>
                <podcast:episode display="Ch.3">204</podcast:episode>
                <podcast:license>cc-by-4.0</podcast:license>
                """)
        let podcast = try #require(parsed.items.first?.podcast)
        #expect(parsed.podcast == nil)
        #expect(
            podcast.transcripts.map(\.url) == [
                "https://example.com/episode1/transcript.vtt",
                "https://example.com/episode1/transcript.json"
            ])
        #expect(podcast.transcripts.map(\.type) == ["text/vtt", "application/json"])
        #expect(podcast.transcripts.map(\.rel) == ["captions", nil])
        #expect(podcast.transcripts.map(\.language) == [nil, "es"])
        #expect(podcast.chapters?.url == "https://example.com/episode1/chapters.json")
        #expect(podcast.chapters?.type == "application/json+chapters")
        #expect(podcast.soundbites.map(\.startTime) == [73, 1234.5])
        #expect(podcast.soundbites.map(\.duration) == [60, 42.25])
        #expect(podcast.soundbites.map(\.title) == [nil, "Why the Podcast Namespace Matters"])
        #expect(podcast.season?.number == 3)
        #expect(podcast.season?.name == "Race for the Whitehouse 2020")
        #expect(podcast.episode?.number == 204)
        #expect(podcast.episode?.display == "Ch.3")
        #expect(
            try podcastFeed(item: "<podcast:episode>315.5</podcast:episode>").items[0].podcast?.episode?.number
                == 315.5)
        #expect(podcast.license?.name == "cc-by-4.0")
        #expect(podcast.license?.url == nil)
    }

    @Test("persons and location on an episode")
    func people() throws {
        let parsed = try podcastFeed(
            item: """
                <podcast:person role="guest" href="https://www.imdb.com/name/nm0427852888/"
                    img="http://example.com/images/alicebrown.jpg">Alice Brown</podcast:person>
                <podcast:person group="visuals" role="cover art designer"
                    href="https://example.com/artist/beckysmith">Becky Smith</podcast:person>
                <podcast:location geo="geo:33.51601,-86.81455"
                    osm="R2829055#3">Birmingham Civil Rights Museum</podcast:location>
                """)
        let podcast = try #require(parsed.items.first?.podcast)
        #expect(podcast.persons.map(\.name) == ["Alice Brown", "Becky Smith"])
        #expect(podcast.persons.map(\.role) == ["guest", "cover art designer"])
        #expect(podcast.persons.map(\.group) == [nil, "visuals"])
        #expect(podcast.persons[0].img == "http://example.com/images/alicebrown.jpg")
        #expect(podcast.persons[1].href == "https://example.com/artist/beckysmith")
        #expect(podcast.locations.first?.osm == "R2829055#3")
        #expect(podcast.locations.first?.name == "Birmingham Civil Rights Museum")
    }

    @Test("alternateEnclosure with sources and integrity")
    func alternateEnclosures() throws {
        let parsed = try podcastFeed(
            item: """
                <podcast:alternateEnclosure type="audio/mpeg" length="43200000" bitrate="128000" default="true"
                    title="Standard">
                    <podcast:source uri="https://example.com/file-0.mp3" />
                    <podcast:source uri="ipfs://someRandomMpegFile" />
                </podcast:alternateEnclosure>
                <podcast:alternateEnclosure type="video/mp4" length="10562995" bitrate="681483.55" height="1080"
                    lang="en-US" rel="Off stage" codecs="avc1.4D401E,mp4a.40.2">
                    <podcast:source uri="https://example.com/file-1080.torrent" contentType="application/x-bittorrent" />
                    <podcast:integrity type="sri"
                        value="sha384-ExVqijgYHm15PqQqdXfW95x+Rs6C+d6E/ICxyQOeFevnxNLR/wtJNrNYTjIysUBo" />
                </podcast:alternateEnclosure>
                """)
        let enclosures = try #require(parsed.items.first?.podcast?.alternateEnclosures)
        #expect(enclosures.count == 2)
        #expect(enclosures[0].type == "audio/mpeg")
        #expect(enclosures[0].length == 43_200_000)
        #expect(enclosures[0].bitrate == 128_000)
        #expect(enclosures[0].isDefault == true)
        #expect(enclosures[0].title == "Standard")
        #expect(enclosures[0].sources.map(\.uri) == ["https://example.com/file-0.mp3", "ipfs://someRandomMpegFile"])
        #expect(enclosures[0].integrity == nil)
        #expect(enclosures[1].bitrate == 681_483.55)
        #expect(enclosures[1].height == 1080)
        #expect(enclosures[1].lang == "en-US")
        #expect(enclosures[1].rel == "Off stage")
        #expect(enclosures[1].codecs == "avc1.4D401E,mp4a.40.2")
        #expect(enclosures[1].isDefault == nil)
        #expect(enclosures[1].sources.first?.contentType == "application/x-bittorrent")
        #expect(enclosures[1].integrity?.type == "sri")
        #expect(enclosures[1].integrity?.value?.hasPrefix("sha384-") == true)
    }

    @Test("value with time splits: remote items and local recipients")
    func valueTimeSplits() throws {
        let parsed = try podcastFeed(
            item: """
                <podcast:value type="lightning" method="keysend">
                    <podcast:valueRecipient name="Alice (Podcaster)" type="node"
                        address="02d5c1bf8b940dc9cadca86d1b0a3c37fbe39cee4c7e839e33bef9174531d27f52" split="95" />
                    <podcast:valueTimeSplit startTime="60" duration="237" remotePercentage="95">
                        <podcast:remoteItem itemGuid="https://podcastindex.org/podcast/4148683#1"
                            feedGuid="a94f5cc9-8c58-55fc-91fe-a324087a655b" medium="music" />
                    </podcast:valueTimeSplit>
                    <podcast:valueTimeSplit startTime="330" duration="53" remoteStartTime="174" remotePercentage="95">
                        <podcast:remoteItem itemGuid="https://podcastindex.org/podcast/4148683#3"
                            feedGuid="a94f5cc9-8c58-55fc-91fe-a324087a655b" medium="music" />
                    </podcast:valueTimeSplit>
                    <podcast:valueTimeSplit startTime="367" duration="246">
                        <podcast:valueRecipient name="Bobjim (Guest)" type="node"
                            address="032f4ffbbafffbe51726ad3c164a3d0d37ec27bc67b29a159b0f49ae8ac21b8508" split="10" />
                    </podcast:valueTimeSplit>
                </podcast:value>
                """)
        let value = try #require(parsed.items.first?.podcast?.values.first)
        #expect(value.recipients.map(\.split) == [95])
        #expect(value.timeSplits.map(\.startTime) == [60, 330, 367])
        #expect(value.timeSplits.map(\.duration) == [237, 53, 246])
        #expect(value.timeSplits.map(\.remoteStartTime) == [nil, 174, nil])
        #expect(value.timeSplits.map(\.remotePercentage) == [95, 95, nil])
        #expect(value.timeSplits[0].remoteItem?.itemGuid == "https://podcastindex.org/podcast/4148683#1")
        #expect(value.timeSplits[0].remoteItem?.feedGuid == "a94f5cc9-8c58-55fc-91fe-a324087a655b")
        #expect(value.timeSplits[0].recipients.isEmpty)
        #expect(value.timeSplits[2].remoteItem == nil)
        #expect(value.timeSplits[2].recipients.map(\.name) == ["Bobjim (Guest)"])
    }

    @Test("socialInteract, chat, txt, images, image, funding, contentLink on an episode")
    func interactionTags() throws {
        let parsed = try podcastFeed(
            item: """
                <podcast:socialInteract priority="1" protocol="activitypub"
                    uri="https://podcastindex.social/@dave/105079274766075912" accountId="@dave"
                    accountUrl="https://podcastindex.social/@dave"/>
                <podcast:socialInteract priority="2" protocol="twitter"
                    uri="https://twitter.com/PodcastindexOrg/status/1507120226361647115" accountId="@podcastindexorg"/>
                <podcast:chat server="relay.example.com" protocol="nostr" accountId="npub1pvdw7" space="#episode129"/>
                <podcast:txt purpose="release">2024-01-01</podcast:txt>
                <podcast:images srcset="https://example.com/images/ep1/pci_avatar-massive.jpg 1500w"/>
                <podcast:image href="https://example.com/images/ep1/pci_square-massive.jpg"/>
                <podcast:funding url="https://example.com/episode-tip">Tip this episode</podcast:funding>
                <podcast:contentLink href="https://example.com/watch">Watch it</podcast:contentLink>
                """)
        let podcast = try #require(parsed.items.first?.podcast)
        #expect(podcast.socialInteracts.map(\.priority) == [1, 2])
        #expect(podcast.socialInteracts.map(\.socialProtocol) == ["activitypub", "twitter"])
        #expect(podcast.socialInteracts[0].uri == "https://podcastindex.social/@dave/105079274766075912")
        #expect(podcast.socialInteracts[0].accountId == "@dave")
        #expect(podcast.socialInteracts[0].accountUrl == "https://podcastindex.social/@dave")
        #expect(podcast.chat?.chatProtocol == "nostr")
        #expect(podcast.chat?.space == "#episode129")
        #expect(podcast.txts.first?.purpose == "release")
        #expect(podcast.imagesSrcset == "https://example.com/images/ep1/pci_avatar-massive.jpg 1500w")
        #expect(podcast.images.map(\.href) == ["https://example.com/images/ep1/pci_square-massive.jpg"])
        #expect(podcast.funding.map(\.text) == ["Tip this episode"])
        #expect(podcast.contentLinks.map(\.href) == ["https://example.com/watch"])
    }
}
