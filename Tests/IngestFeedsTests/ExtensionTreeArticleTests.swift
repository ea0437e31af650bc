// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import IngestFeeds
import IngestTestSupport
import Testing

/// The extension tree article (IngestFeeds.docc/ExtensionTree.md): its snippet compiles
/// here as written, and the tree has the shape the article draws.
@Suite("The extension tree article")
struct ExtensionTreeArticleTests {
    static let article = "Sources/IngestFeeds/IngestFeeds.docc/ExtensionTree.md"

    func mediaContent(of item: FeedItem) -> [(url: String, title: String?)] {
        (item.extensions["media"]?["content"] ?? []).compactMap { content in
            guard let url = content.attributes["url"] else { return nil }
            return (url, content.child("title")?.value)
        }
    }

    @Test("Every Swift snippet of the article is in this file")
    func snippetsCompile() throws {
        #expect(try swiftCodeBlocks(inArticle: Self.article).count == 1)
        #expect(try codeBlocks(ofArticle: Self.article, missingFrom: #filePath) == [])
    }

    @Test("Keyed by the namespace's usual prefix whatever the feed wrote; attributes, text and children as drawn")
    func shape() throws {
        let xml = """
            <rss version="2.0" xmlns:m="http://search.yahoo.com/mrss/" xmlns:x="urn:example:own">
              <channel><title>Clips</title>
                <item><title>One</title>
                  <m:content url="https://example.org/a.mp4" type="video/mp4">
                    <m:title>A clip</m:title>
                  </m:content>
                  <x:rating scheme="stars">4</x:rating>
                </item>
              </channel>
            </rss>
            """
        let feed = try Feed(data: Data(xml.utf8))
        let item = try #require(feed.items.first)
        let found = mediaContent(of: item)
        #expect(found.count == 1)
        #expect(found.first?.url == "https://example.org/a.mp4")
        #expect(found.first?.title == "A clip")
        let content = try #require(item.extensions["media"]?["content"]?.first)
        #expect(content.name == "content")
        #expect(content.value == "")
        #expect(content.attributes == ["url": "https://example.org/a.mp4", "type": "video/mp4"])
        #expect(item.extensions["m"] == nil)
        // A namespace no table knows is keyed by the prefix the document declared.
        #expect(item.extensions["x"]?["rating"]?.first?.value == "4")
        #expect(item.extensions["x"]?["rating"]?.first?.attributes == ["scheme": "stars"])
        let json = String(decoding: item.gofeedJSON(), as: UTF8.self)
        #expect(json.contains(#""extensions":{"media":{"content":[{"name":"content","value":"","attrs":{"#), "\(json)")
    }
}
