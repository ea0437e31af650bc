import Foundation
import IngestFeeds
import IngestCore
import Testing

@Suite("Podlove Simple Chapters: a typed chapter list on items")
struct PodloveChaptersTests {
    /// An item carrying the example of the Podlove Simple Chapters specification.
    static let specExample = """
        <rss version="2.0"><channel><title>Podlove</title><item><title>Episode</title>
        <psc:chapters version="1.2" xmlns:psc="http://podlove.org/simple-chapters">
          <psc:chapter start="00:00:00.000" title="Welcome" />
          <psc:chapter start="00:03:07.000" title="Introducing Podlove" href="http://podlove.org/" />
          <psc:chapter start="00:08:26.250" title="Podlove WordPress Plugin"
            href="http://podlove.org/podlove-podcast-publisher" />
          <psc:chapter start="00:12:42.000" title="Resumée" image="http://podlove.org/resumee.jpg" />
        </psc:chapters>
        </item></channel></rss>
        """

    @Test("the specification's example: starts in seconds, titles, links, images, in order")
    func specification() throws {
        let chapters = try #require(try feed(Self.specExample).items.first).chapters
        #expect(chapters.map(\.start) == [0, 187, 506.25, 762])
        #expect(chapters.map(\.title) == ["Welcome", "Introducing Podlove", "Podlove WordPress Plugin", "Resumée"])
        #expect(chapters[1].href == "http://podlove.org/")
        #expect(chapters[0].href == nil)
        #expect(chapters[3].image == "http://podlove.org/resumee.jpg")
        #expect(chapters[2].startText == "00:08:26.250")
    }

    @Test(
        "normal play time in every form the specification allows",
        arguments: [
            ("01:02:03.500", 3723.5), ("1:02:03.5", 3723.5), ("02:03", 123), ("45", 45), ("45.125", 45.125),
            ("0", 0)
        ] as [(String, Double)])
    func startTimes(text: String, seconds: Double) throws {
        let chapters = try feed(
            """
            <rss version="2.0" xmlns:psc="http://podlove.org/simple-chapters"><channel><item>
            <psc:chapters><psc:chapter start="\(text)" title="t"/></psc:chapters></item></channel></rss>
            """
        ).items.first?.chapters
        #expect(chapters?.map(\.start) == [seconds])
    }

    @Test("chapters whose start is missing or not a time are skipped; the others are kept")
    func invalidStarts() throws {
        let chapters = try feed(
            """
            <rss version="2.0" xmlns:psc="http://podlove.org/simple-chapters"><channel><item>
            <psc:chapters version="1.2">
              <psc:chapter start="-00:00:05" title="negative"/><psc:chapter title="no start"/>
              <psc:chapter start="" title="empty"/><psc:chapter start="1:99" title="not a clock"/>
              <psc:chapter start="99999999999999999999:00" title="overflow"/><psc:chapter start="ten" title="words"/>
              <psc:chapter start="00:00:10" title="kept"/>
            </psc:chapters></item></channel></rss>
            """
        ).items.first?.chapters
        #expect(chapters?.map(\.title) == ["kept"])
        #expect(chapters?.first?.start == 10)
    }

    @Test("a prefix other than psc is matched by the namespace; items without chapters have none")
    func otherPrefix() throws {
        let parsed = try feed(
            """
            <rss version="2.0" xmlns:chap="http://podlove.org/simple-chapters"><channel>
            <item><chap:chapters><chap:chapter start="5" title="Five"/></chap:chapters></item>
            <item><title>plain</title></item></channel></rss>
            """)
        #expect(parsed.items[0].chapters == [PodloveChapter(start: 5, startText: "5", title: "Five")])
        #expect(parsed.items[1].chapters.isEmpty)
    }

    @Test("a Codable round trip keeps the chapters (they are read from the extension elements)")
    func codable() throws {
        let original = try feed(Self.specExample)
        let decoded = try JSONDecoder().decode(Feed.self, from: try JSONEncoder().encode(original))
        #expect(decoded.items.first?.chapters == original.items.first?.chapters)
        #expect(decoded.items.first?.chapters.count == 4)
    }
}
