// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import IngestFeeds
import IngestTestSupport
import Testing

/// The podcast tags article (IngestFeeds.docc/PodcastsAndMediaRSS.md): its snippet compiles
/// here as written, and runs over a feed with every kind of data it prints.
@Suite("The article on podcast and Media RSS tags")
struct PodcastsAndMediaRSSArticleTests {
    static let article = "Sources/IngestFeeds/IngestFeeds.docc/PodcastsAndMediaRSS.md"

    func printAll(of feed: Feed) {
        for item in feed.items {
            let iTunes = item.iTunes
            print(iTunes?.season ?? 0, iTunes?.episode ?? 0, iTunes?.episodeType?.rawValue ?? "full",
                  iTunes?.durationSeconds ?? 0, iTunes?.isExplicit ?? false)
            for chapter in item.chapters { print(chapter.start, chapter.title ?? "") }
            for file in item.media { print(file.source, file.url, file.byteCount ?? 0) }
        }
    }

    @Test("Every Swift snippet of the article is in this file")
    func snippetsCompile() throws {
        #expect(try swiftCodeBlocks(inArticle: Self.article).count == 1)
        #expect(try codeBlocks(ofArticle: Self.article, missingFrom: #filePath) == [])
    }

    @Test("The snippet's accessors over one episode")
    func accessors() throws {
        let parsed = try feed("""
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:psc="http://podlove.org/simple-chapters"><channel><item>
            <itunes:season>2</itunes:season><itunes:episode>7</itunes:episode><itunes:duration>10:00</itunes:duration>
            <psc:chapters><psc:chapter start="0" title="Hello"/></psc:chapters>
            <enclosure url="https://example.com/7.mp3" length="5" type="audio/mpeg"/>
            </item></channel></rss>
            """)
        printAll(of: parsed)
        let item = try #require(parsed.items.first)
        #expect(item.iTunes?.season == 2)
        #expect(item.iTunes?.episode == 7)
        #expect(item.iTunes?.durationSeconds == 600)
        #expect(item.chapters.map(\.title) == ["Hello"])
        #expect(item.media == [MediaFile(source: .enclosure, url: "https://example.com/7.mp3", type: "audio/mpeg",
                                         byteCount: 5, duration: 600)])
    }
}
