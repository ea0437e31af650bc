import Foundation
import IngestFeeds
import IngestCore
import Testing

@Suite("Format detection: from the content, never the name")
struct FormatDetectionTests {
    /// One small document of every format and version, and what it is.
    static let documents: [(String, FeedFormat.Family, String)] = [
        (#"<rss version="0.91"><channel><title>t</title></channel></rss>"#, .rss, "0.91"),
        (#"<rss version="0.92"><channel><title>t</title></channel></rss>"#, .rss, "0.92"),
        (#"<rss version="2.0"><channel><title>t</title></channel></rss>"#, .rss, "2.0"),
        (#"<RSS version="2.0"><channel><title>t</title></channel></RSS>"#, .rss, "2.0"),
        (
            #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel><title>t</title></channel></rdf:RDF>"#,
            .rss, "1.0"
        ),
        (
            #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/"><channel><title>t</title></channel></rdf:RDF>"#,
            .rss, "0.9"
        ),
        (
            #"<R:RDF xmlns:R="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rss="http://purl.org/rss/1.0/"><rss:channel><rss:title>t</rss:title></rss:channel></R:RDF>"#,
            .rss, "1.0"
        ),
        (#"<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>t</title></feed>"#, .atom, "0.3"),
        (#"<feed xmlns="http://purl.org/atom/ns#"><title>t</title></feed>"#, .atom, "0.3"),
        (#"<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>"#, .atom, "1.0"),
        (#"<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:title>t</a:title></a:feed>"#, .atom, "1.0"),
        (#"{"version": "https://jsonfeed.org/version/1", "title": "t", "items": []}"#, .json, "1.0"),
        (#"{"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": []}"#, .json, "1.1"),
        (#"{"title": "t", "items": [], "version": "1.1"}"#, .json, "1.1")
    ]

    @Test("every format and version", arguments: documents)
    func detects(_ text: String, _ family: FeedFormat.Family, _ version: String) throws {
        let parsed = try feed(text)
        #expect(parsed.format == FeedFormat(family, version: version))
        #expect(parsed.title?.value == "t")
        #expect(parsed.items.isEmpty)
    }

    /// gofeed's one-feed-of-each-kind files, and what each is.
    static let universal: [(String, FeedFormat.Family, String)] = [
        ("atom03_feed.xml", .atom, "0.3"), ("atom10_feed.xml", .atom, "1.0"), ("rdf_feed.xml", .rss, "1.0"),
        ("rss_feed.xml", .rss, "2.0"), ("rss_feed_bom.xml", .rss, "2.0"), ("rss_feed_leading_spaces.xml", .rss, "2.0"),
        ("json10_feed.json", .json, "1.0"), ("json11_feed.json", .json, "1.1"), ("sample.json", .json, "1.0")
    ]

    @Test(
        "gofeed's universal examples", .enabled(if: GofeedData.isPresent, Comment(rawValue: GofeedData.absentMessage)),
        arguments: universal)
    func universalFile(_ name: String, _ family: FeedFormat.Family, _ version: String) throws {
        let parsed = try Feed(contentsOf: GofeedData.root.appendingPathComponent("parser/universal/\(name)"))
        #expect(parsed.format == FeedFormat(family, version: version))
        #expect(parsed.wellFormed)
    }

    @Test(
        "gofeed's examples that are no feed are data errors",
        .enabled(if: GofeedData.isPresent, Comment(rawValue: GofeedData.absentMessage)),
        arguments: ["empty_feed.xml", "unknown_feed.xml", "invalid.json"])
    func notAFeed(_ name: String) throws {
        let error = try #require(throws: IngestError.self) {
            try Feed(contentsOf: GofeedData.root.appendingPathComponent("parser/universal/\(name)"))
        }
        #expect(error.kind == .data)
        #expect(error.file?.hasSuffix(name) == true)
    }

    /// Documents that are not feeds, and what the error says.
    static let nonFeeds: [(String, String)] = [
        ("", "empty input"),
        ("   \n\t ", "only white space"),
        ("<note><to>Tove</to></note>", "the document element is <note>"),
        (#"<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>"#, "<html> in http://www.w3.org/1999/xhtml"),
        ("[1, 2, 3]", "this JSON document is an array"),
        (#"{"title": "no version", "items": []}"#, "no JSON Feed \"version\" member"),
        (#"{"version": "2.0", "items": []}"#, "is not a JSON Feed version"),
        ("Hello, world", "it starts with \"H\"")
    ]

    @Test("not a feed: a data error that says what it is", arguments: nonFeeds)
    func rejects(_ text: String, _ message: String) throws {
        let error = try #require(throws: IngestError.self) { try feed(text) }
        #expect(error.kind == .data)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("the file name does not matter: RSS named .json and JSON Feed named .xml")
    func fileNameIgnored() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rss = directory.appendingPathComponent("feed.json")
        try Data(#"<rss version="2.0"><channel><title>r</title></channel></rss>"#.utf8).write(to: rss)
        let json = directory.appendingPathComponent("feed.xml")
        try Data(#"{"version": "https://jsonfeed.org/version/1.1", "title": "j"}"#.utf8).write(to: json)
        #expect(try Feed(contentsOf: rss).format.family == .rss)
        #expect(try Feed(contentsOf: json).format.family == .json)
    }

    @Test("a feed with no items is still a feed; a URL that is not a file is a usage error")
    func emptyFeedAndURLs() throws {
        let empty = try feed(#"<rss version="2.0"><channel/></rss>"#)
        #expect(empty.items.isEmpty)
        #expect(empty.title == nil)
        let error = try #require(throws: IngestError.self) {
            try Feed(contentsOf: URL(string: "https://example.org/feed")!)
        }
        #expect(error.kind == .usage)
    }
}
