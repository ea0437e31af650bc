import Foundation
import IngestFeeds
import IngestCore
import Testing

@Suite("JSON Feed 1.0 and 1.1")
struct JSONFeedTests {
    @Test("JSON Feed 1.0: author, attachments, content_html over content_text, the first item's dates")
    func version1() throws {
        let parsed = try feed(
            """
            {
              "version": "https://jsonfeed.org/version/1",
              "title": "My Example Feed",
              "home_page_url": "https://example.org/",
              "feed_url": "https://example.org/feed.json",
              "icon": "https://example.org/icon.png",
              "author": {"name": "Jo Writer (jo@example.org)", "url": "https://example.org/jo", "avatar": "https://example.org/jo.png"},
              "_custom": {"ignored": true},
              "items": [
                {"id": 2, "url": "https://example.org/2", "content_text": "Plain", "content_html": "<p>Rich</p>",
                 "date_published": "2010-02-07T14:04:00-05:00", "date_modified": "2010-02-08T09:00:00Z",
                 "tags": ["a", "b"], "banner_image": "https://example.org/banner.png",
                 "attachments": [{"url": "https://example.org/2.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 1234,
                                  "duration_in_seconds": 60}]},
                {"id": "1", "title": "First", "content_text": "Only text", "summary": "Short"}
              ]
            }
            """)
        #expect(parsed.format == FeedFormat(.json, version: "1.0"))
        #expect(parsed.link == "https://example.org/")
        #expect(parsed.feedLink == "https://example.org/feed.json")
        #expect(parsed.links.map(\.href) == ["https://example.org/", "https://example.org/feed.json"])
        #expect(parsed.image?.url == "https://example.org/icon.png")
        #expect(
            parsed.author
                == Person(
                    name: "Jo Writer", email: "jo@example.org", url: "https://example.org/jo",
                    avatar: "https://example.org/jo.png"))
        #expect(parsed.authors.count == 1)
        #expect(parsed.publishedParsed?.rfc3339 == "2010-02-07T19:04:00Z")
        #expect(parsed.updated == "2010-02-08T09:00:00Z")
        let first = parsed.items[0]
        #expect(first.guid == "2")
        #expect(first.content == FeedText("<p>Rich</p>", type: .html))
        #expect(first.categories == ["a", "b"])
        #expect(first.image?.url == "https://example.org/banner.png")
        #expect(first.enclosures == [Enclosure(url: "https://example.org/2.mp3", length: "1234", type: "audio/mpeg")])
        #expect(parsed.items[1].content == FeedText("Only text", type: .text))
        #expect(parsed.items[1].description?.value == "Short")
    }

    @Test("JSON Feed 1.1: authors and language; version after the items")
    func version11() throws {
        let parsed = try feed(
            """
            {"items": [{"id": "a", "authors": [{"name": "A"}, {"name": "B"}], "language": "fr"}],
             "authors": [{"name": "Team"}], "language": "en-GB", "title": "t",
             "version": "https://jsonfeed.org/version/1.1"}
            """)
        #expect(parsed.format == FeedFormat(.json, version: "1.1"))
        #expect(parsed.language == "en-GB")
        #expect(parsed.author == nil)
        #expect(parsed.authors == [Person(name: "Team")])
        #expect(parsed.items.count == 1)
        #expect(parsed.items[0].authors == [Person(name: "A"), Person(name: "B")])
        #expect(parsed.items[0].author == nil)
    }

    @Test(
        "gofeed's JSON Feed examples, 1.0 and 1.1",
        .enabled(if: GofeedData.isPresent, Comment(rawValue: GofeedData.absentMessage)))
    func gofeedExamples() throws {
        let ten = try Feed(contentsOf: GofeedData.root.appendingPathComponent("parser/universal/json10_feed.json"))
        let eleven = try Feed(contentsOf: GofeedData.root.appendingPathComponent("parser/universal/json11_feed.json"))
        #expect(ten.format.version == "1.0")
        #expect(eleven.format.version == "1.1")
        #expect(ten.title?.value == "title")
        #expect(ten.items.count == eleven.items.count)
        #expect(ten.items.first?.link == eleven.items.first?.link)
    }

    @Test("malformed JSON is a data error with its position")
    func malformed() throws {
        let error = try #require(throws: IngestError.self) {
            try feed("{\"version\": \"https://jsonfeed.org/version/1.1\",\n \"items\": [}")
        }
        #expect(error.kind == .data)
        #expect(error.position?.line == 2)
    }
}
