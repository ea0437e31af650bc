import Foundation
import IngestFeeds
import Testing

@Suite("JSON chapters (Podcasting 2.0 application/json+chapters)")
struct JSONChaptersTests {
    /// The example of the Podcasting 2.0 jsonChapters.md specification.
    static let specExample = """
        {
            "version": "1.2.0",
            "chapters":
                [
                    { "startTime": 0, "title": "Intro" },
                    {
                        "startTime": 168,
                        "title": "Hearing Aids",
                        "img": "https://example.com/images/hearing_aids.jpg",
                        "url": "https://example.com/hearing-aids"
                    },
                    { "startTime": 260, "title": "Progress Report" },
                    { "startTime": 410, "title": "Namespace", "toc": false },
                    {
                        "startTime": 3990.5,
                        "endTime": 4010,
                        "title": "Just Kidding",
                        "location": { "name": "Austin, TX", "geo": "geo:30.2672,97.7431", "osm": "R113314" }
                    }
                ]
        }
        """

    @Test("the specification's example: every field")
    func specification() throws {
        let document = try JSONChapters(data: Data(Self.specExample.utf8))
        #expect(document.version == "1.2.0")
        #expect(document.chapters.map(\.startTime) == [0, 168, 260, 410, 3990.5])
        #expect(
            document.chapters.map(\.title)
                == ["Intro", "Hearing Aids", "Progress Report", "Namespace", "Just Kidding"])
        #expect(document.chapters[1].img == "https://example.com/images/hearing_aids.jpg")
        #expect(document.chapters[1].url == "https://example.com/hearing-aids")
        #expect(document.chapters[3].toc == false)
        #expect(document.chapters[0].toc == nil)
        #expect(document.chapters[4].endTime == 4010)
        #expect(
            document.chapters[4].location
                == JSONChapters.Location(
                    name: "Austin, TX", geo: "geo:30.2672,97.7431",
                    osm: "R113314"))
    }

    @Test("a negative time is refused, naming the chapter and the key")
    func negativeTime() {
        #expect(throws: JSONChaptersError.invalidTime(chapter: 1, key: "startTime")) {
            try JSONChapters(data: Data(#"{"version":"1.2.0","chapters":[{"startTime":0},{"startTime":-1}]}"#.utf8))
        }
        #expect(throws: JSONChaptersError.invalidTime(chapter: 0, key: "endTime")) {
            try JSONChapters(data: Data(#"{"version":"1.2.0","chapters":[{"startTime":1,"endTime":-0.5}]}"#.utf8))
        }
    }

    @Test("a time too large for a Double is refused")
    func nonFiniteTime() {
        #expect(throws: JSONChaptersError.self) {
            try JSONChapters(data: Data(#"{"version":"1.2.0","chapters":[{"startTime":1e400}]}"#.utf8))
        }
    }

    @Test("a document over the size limit is refused before it is read")
    func sizeLimit() throws {
        let data = Data(Self.specExample.utf8)
        #expect(throws: JSONChaptersError.tooLarge(size: data.count, maximumSize: 100)) {
            try JSONChapters(data: data, maximumSize: 100)
        }
        #expect(try JSONChapters(data: data, maximumSize: data.count).chapters.count == 5)
        #expect(JSONChapters.defaultMaximumSize >= 1_000_000)
    }

    @Test(
        "not JSON, or not this format: a clear error",
        arguments: [
            "", "not json", "[]", #"{"version":"1.2.0"}"#, #"{"chapters":[]}"#,
            #"{"version":"1.2.0","chapters":[{"title":"no start"}]}"#,
            #"{"version":"1.2.0","chapters":[{"startTime":"12"}]}"#
        ])
    func notChapters(text: String) throws {
        let error = try #require(throws: JSONChaptersError.self) { try JSONChapters(data: Data(text.utf8)) }
        guard case .notChapters = error else {
            Issue.record("expected notChapters, got \(error)")
            return
        }
        #expect(error.description.hasPrefix("not a JSON chapters document"))
    }

    @Test("an empty chapter list is a document")
    func empty() throws {
        #expect(try JSONChapters(data: Data(#"{"version":"1.2.0","chapters":[]}"#.utf8)).chapters.isEmpty)
    }
}
