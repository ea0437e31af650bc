import Foundation
import IngestFeeds
import IngestCore
import Testing

@Suite("Media RSS, typed, and media files offered in place of enclosures")
struct MediaRSSTests {
    /// The Media RSS specification's examples: a song with its credits and rating; a
    /// group of one song in several encodings; a video with its thumbnail, player,
    /// title and description.
    static let specExamples = """
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
        <channel>
        <title>Song Site</title>
        <link>http://www.foo.com</link>
        <description>Discussion on different songs</description>
        <media:thumbnail url="http://www.foo.com/channel.jpg" width="75" height="50"/>
        <item>
          <title>Cool song by an artist</title>
          <link>http://www.foo.com/item1.htm</link>
          <media:content url="http://www.foo.com/song.mp3" fileSize="1000" bitrate="128" type="audio/mpeg"
            expression="full">
            <media:credit role="musician">member of band1</media:credit>
            <media:category>music/artist name/album/song</media:category>
            <media:rating>nonadult</media:rating>
          </media:content>
        </item>
        <item>
          <title>Cool song by an artist</title>
          <media:group>
            <media:content url="http://www.foo.com/song64kbps.mp3" fileSize="1000" bitrate="64" type="audio/mpeg"
              isDefault="true" expression="full"/>
            <media:content url="http://www.foo.com/song128kbps.mp3" fileSize="2000" bitrate="128"
              type="audio/mpeg" expression="full"/>
            <media:content url="http://www.foo.com/song.wav" fileSize="16000" bitrate="1411" type="audio/x-wav"
              expression="full"/>
            <media:credit role="musician">band member 1</media:credit>
            <media:credit role="musician">band member 2</media:credit>
            <media:rating>nonadult</media:rating>
          </media:group>
        </item>
        <item>
          <title>Movie trailer</title>
          <media:content url="http://www.foo.com/movie.mov" fileSize="12216320" type="video/quicktime"
            expression="sample" medium="video" height="200" width="400" duration="185" lang="en"/>
          <media:title type="plain">The Judy's -- The Moo Song</media:title>
          <media:description type="html">This was some &lt;b&gt;really&lt;/b&gt; bizarre band.</media:description>
          <media:thumbnail url="http://www.foo.com/keyframe.jpg" width="75" height="50" time="12:05:01.123"/>
          <media:credit role="producer" scheme="urn:ebu">entity name</media:credit>
          <media:rating scheme="urn:mpaa">pg</media:rating>
          <media:player url="http://www.foo.com/player?id=1111" height="200" width="400"/>
        </item>
        </channel>
        </rss>
        """

    @Test("media:content with its attributes and the credit and rating inside it")
    func content() throws {
        let item = try #require(try feed(Self.specExamples).items.first)
        let content = try #require(item.mediaRSS?.contents.first)
        #expect(content.url == "http://www.foo.com/song.mp3")
        #expect(content.fileSize == 1000)
        #expect(content.bitrate == 128)
        #expect(content.type == "audio/mpeg")
        #expect(content.expression == "full")
        #expect(content.isDefault == nil)
        #expect(content.metadata.credits == [MediaCredit(value: "member of band1", role: "musician")])
        #expect(content.metadata.ratings == [MediaRating(value: "nonadult")])
    }

    @Test("media:group: its contents, its default, and what describes them all")
    func group() throws {
        let item = try feed(Self.specExamples).items[1]
        let group = try #require(item.mediaRSS?.groups.first)
        #expect(group.contents.map(\.bitrate) == [64, 128, 1411])
        #expect(group.contents.map(\.isDefault) == [true, nil, nil])
        #expect(group.defaultContent?.url == "http://www.foo.com/song64kbps.mp3")
        #expect(group.metadata.credits.map(\.value) == ["band member 1", "band member 2"])
        #expect(group.metadata.ratings == [MediaRating(value: "nonadult")])
        #expect(item.mediaRSS?.contents.isEmpty == true)
    }

    @Test("item-level title, description, thumbnail, credit, rating and player")
    func metadata() throws {
        let item = try feed(Self.specExamples).items[2]
        let media = try #require(item.mediaRSS)
        let content = try #require(media.contents.first)
        #expect(content.medium == "video")
        #expect(content.height == 200)
        #expect(content.width == 400)
        #expect(content.duration == 185)
        #expect(content.lang == "en")
        #expect(media.metadata.title == MediaText(value: "The Judy's -- The Moo Song", type: "plain"))
        #expect(media.metadata.description?.isHTML == true)
        #expect(media.metadata.description?.value == "This was some <b>really</b> bizarre band.")
        let thumbnail = try #require(media.metadata.thumbnails.first)
        #expect(thumbnail.url == "http://www.foo.com/keyframe.jpg")
        #expect(thumbnail.width == 75)
        #expect(thumbnail.height == 50)
        let time = try #require(thumbnail.time)
        #expect(abs(time - 43501.123) < 0.000_001)
        #expect(media.metadata.credits == [MediaCredit(value: "entity name", role: "producer", scheme: "urn:ebu")])
        #expect(media.metadata.ratings == [MediaRating(value: "pg", scheme: "urn:mpaa")])
        #expect(media.metadata.player == MediaPlayer(url: "http://www.foo.com/player?id=1111", width: 400, height: 200))
    }

    @Test("the channel's Media RSS elements")
    func channel() throws {
        let parsed = try feed(Self.specExamples)
        #expect(
            parsed.mediaRSS?.metadata.thumbnails == [
                MediaThumbnail(
                    url: "http://www.foo.com/channel.jpg",
                    width: 75, height: 50)
            ])
    }

    @Test("numbers: overflow, signs, fractions where a whole number is due, and empty values are nil")
    func numbers() throws {
        let item = try #require(
            try feed(
                """
                <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><item>
                <media:content url="" fileSize="99999999999999999999" bitrate="-64" duration="-3" height="1.5"
                  width="" isDefault="maybe"/>
                <media:content url="http://a/b" bitrate="1e999" duration="abc" fileSize="+5" height=" 10 "/>
                <media:thumbnail url="" width="1"/><media:player width="2"/><media:credit role="x"/>
                <media:title></media:title>
                </item></channel></rss>
                """
            ).items.first)
        let media = try #require(item.mediaRSS)
        #expect(media.contents.count == 2)
        let first = media.contents[0]
        #expect(first.url == nil)
        #expect(first.fileSize == nil)
        #expect(first.bitrate == nil)
        #expect(first.duration == nil)
        #expect(first.height == nil)
        #expect(first.width == nil)
        #expect(first.isDefault == nil)
        let second = media.contents[1]
        #expect(second.bitrate == nil)
        #expect(second.duration == nil)
        #expect(second.fileSize == nil)
        #expect(second.height == 10)
        #expect(media.metadata.isEmpty)
        #expect(item.media == [MediaFile(source: .mediaContent, url: "http://a/b")])
    }

    @Test("media files: media:content when there is no enclosure, the group's default first")
    func mediaInPlaceOfEnclosures() throws {
        let items = try feed(Self.specExamples).items
        #expect(items[0].enclosures.isEmpty)
        #expect(
            items[0].media == [
                MediaFile(
                    source: .mediaContent, url: "http://www.foo.com/song.mp3",
                    type: "audio/mpeg", byteCount: 1000)
            ])
        #expect(
            items[1].media.map(\.url) == [
                "http://www.foo.com/song64kbps.mp3", "http://www.foo.com/song128kbps.mp3",
                "http://www.foo.com/song.wav"
            ])
        #expect(items[2].media.first?.duration == 185)
        #expect(items[2].media.first?.source == .mediaContent)
    }

    @Test("media files: an enclosure wins over media:content, trimmed, with the iTunes duration")
    func enclosuresFirst() throws {
        let item = try #require(
            try feed(
                """
                <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"
                     xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><item>
                <enclosure url=" http://example.com/a.mp3 " length="1234" type="audio/mpeg"/>
                <enclosure url="" type="audio/mpeg"/>
                <media:content url="http://example.com/a.ogg" type="audio/ogg"/>
                <itunes:duration>1:00:00.5</itunes:duration>
                </item></channel></rss>
                """
            ).items.first)
        #expect(item.enclosures.first?.url == "http://example.com/a.mp3")
        #expect(
            item.media == [
                MediaFile(
                    source: .enclosure, url: "http://example.com/a.mp3", type: "audio/mpeg",
                    byteCount: 1234, duration: 3601)
            ])
        #expect(item.mediaRSS?.contents.first?.url == "http://example.com/a.ogg")
    }

    @Test("a Codable round trip keeps the typed view (it is read from the extension elements)")
    func codable() throws {
        let original = try feed(Self.specExamples)
        let decoded = try JSONDecoder().decode(Feed.self, from: try JSONEncoder().encode(original))
        #expect(decoded.items.map(\.mediaRSS) == original.items.map(\.mediaRSS))
        #expect(decoded.items.map(\.media) == original.items.map(\.media))
        #expect(decoded.mediaRSS == original.mediaRSS)
        #expect(decoded.items[2].mediaRSS?.metadata.player != nil)
    }
}
