import Foundation
import IngestFeeds
import IngestCore
import Testing

/// gofeed's translator corpus (`../shared/testdata/gofeed/translator`, MIT): each
/// input feed beside the universal model gofeed makes of it. Ours, encoded as
/// gofeed's JSON, must equal the expected file read the way gofeed's own test
/// reads it (see ``GofeedJSON``), as JSON values.
@Suite("gofeed's translator corpus")
struct GofeedTranslatorTests {
    struct Pair: CustomTestStringConvertible, Sendable {
        var name: String
        var input: URL
        var expected: URL
        var testDescription: String { name }
    }

    /// Every pair: `rss/NAME.xml` → `NAME.json`, `atom/…` likewise, `json/NAME.json`
    /// → `NAME_expected.json`; and the Dublin Core, iTunes and Media RSS examples of
    /// `extensions/`, which pair the same way.
    static let pairs: [Pair] = {
        var pairs: [Pair] = []
        for directory in [
            "translator/rss", "translator/atom", "extensions/dublincore", "extensions/itunes",
            "extensions/media"
        ] {
            for input in GofeedData.files(directory, suffix: ".xml") {
                let expected = input.deletingPathExtension().appendingPathExtension("json")
                pairs.append(
                    Pair(
                        name: "\(directory)/\(input.deletingPathExtension().lastPathComponent)",
                        input: input, expected: expected))
            }
        }
        for input in GofeedData.files("translator/json", suffix: ".json") where !input.path.hasSuffix("_expected.json")
        {
            let base = input.deletingPathExtension()
            pairs.append(
                Pair(
                    name: "translator/json/\(base.lastPathComponent)", input: input,
                    expected: base.deletingLastPathComponent()
                        .appendingPathComponent(base.lastPathComponent + "_expected.json")))
        }
        return pairs
    }()

    /// The pairs we do not match, read as gofeed's test reads them, and why.
    static let knownExceptions: [String: String] = [:]

    /// The pairs whose expected file, compared as raw JSON without gofeed's
    /// unmarshalling, differs from ours — each because the file holds something
    /// gofeed's model has no field for, which its test drops (the table in
    /// Sources/IngestFeeds/IngestFeeds.docc/IngestFeeds.md).
    static let rawDifferences: [String: String] = [
        "translator/rss/feed_item_enclosure_-_rss_channel_item_enclosure":
            "the file has an \"enclosure\" key (with type audio/jpeg) and \"title\": \"\" in the image; "
            + "gofeed's Item has no enclosure field and omits an empty title",
        "extensions/media/feed_image_-_rss_channel_media":
            "the file leaves out an extension's \"value\", which gofeed always writes (\"\")",
        "extensions/media/feed_item_image_-_rss_channel_item_media":
            "the file has \"title\": \"\" in the image, which gofeed's omitempty leaves out",
        "translator/json/json10_full":
            "the file gives persons \"avatar\" and \"url\", which gofeed's Person does not have",
        "translator/json/json11_full":
            "the file gives persons \"avatar\" and \"url\", which gofeed's Person does not have"
    ]

    static func compare(_ pair: Pair) throws -> (ours: JSONValue, expected: JSONValue) {
        let feed = try Feed(contentsOf: pair.input)
        let ours = try JSONValue(parsing: String(decoding: feed.gofeedJSON(), as: UTF8.self))
        let expected = try JSONValue(parsing: String(contentsOf: pair.expected, encoding: .utf8))
        return (GofeedJSON.sorted(ours), GofeedJSON.normalized(feed: expected))
    }

    @Test(
        "each pair", .enabled(if: GofeedData.isPresent, Comment(rawValue: GofeedData.absentMessage)), arguments: pairs)
    func pair(_ pair: Pair) throws {
        let (ours, expected) = try Self.compare(pair)
        if let reason = Self.knownExceptions[pair.name] {
            #expect(
                ours != expected,
                Comment(rawValue: "\(pair.name) is listed as an exception (\(reason)) but now matches"))
        } else {
            #expect(
                ours == expected,
                Comment(rawValue: "\(pair.name)\n ours:   \(ours.serialized)\n gofeed: \(expected.serialized)"))
        }
    }

    @Test(
        "at least 90% of the pairs match, and the exceptions are exactly the listed ones",
        .enabled(if: GofeedData.isPresent, Comment(rawValue: GofeedData.absentMessage)))
    func passRate() throws {
        #expect(Self.pairs.count >= 100)
        var failing: Set<String> = []
        for pair in Self.pairs {
            let (ours, expected) = try Self.compare(pair)
            if ours != expected { failing.insert(pair.name) }
        }
        let passed = Self.pairs.count - failing.count
        #expect(
            Double(passed) >= 0.9 * Double(Self.pairs.count),
            Comment(rawValue: "\(passed) of \(Self.pairs.count) pairs match"))
        #expect(failing == Set(Self.knownExceptions.keys))
    }

    @Test(
        "every feed of the corpus decodes from its gofeed JSON to a feed that writes the same JSON",
        .enabled(if: GofeedData.isPresent, Comment(rawValue: GofeedData.absentMessage)))
    func decodingGivesTheSameJSONBack() throws {
        var withExtensions = 0
        for pair in Self.pairs {
            let feed = try Feed(contentsOf: pair.input)
            let written = feed.gofeedJSON()
            let decoded = try JSONDecoder().decode(Feed.self, from: written)
            #expect(decoded.gofeedJSON() == written, Comment(rawValue: pair.name))
            // Through JSONEncoder, which orders keys its own way: the same members.
            let encoded = try JSONValue(parsing: String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self))
            #expect(GofeedJSON.sorted(encoded) == GofeedJSON.sorted(feed.gofeedJSONValue), Comment(rawValue: pair.name))
            if !feed.extensions.isEmpty || feed.iTunes != nil || feed.dublinCore != nil
                || feed.items.contains(where: { !$0.extensions.isEmpty || $0.iTunes != nil || $0.dublinCore != nil })
            {
                withExtensions += 1
            }
        }
        #expect(withExtensions >= 15, "the corpus exercises extensions, iTunes and Dublin Core: \(withExtensions)")
    }

    @Test(
        "compared raw, only files holding what gofeed's model has no field for differ",
        .enabled(if: GofeedData.isPresent, Comment(rawValue: GofeedData.absentMessage)))
    func rawComparison() throws {
        var differing: Set<String> = []
        for pair in Self.pairs {
            let feed = try Feed(contentsOf: pair.input)
            let ours = try JSONValue(parsing: String(decoding: feed.gofeedJSON(), as: UTF8.self))
            let expected = try JSONValue(parsing: String(contentsOf: pair.expected, encoding: .utf8))
            if GofeedJSON.sorted(ours) != GofeedJSON.sorted(expected) { differing.insert(pair.name) }
        }
        #expect(differing == Set(Self.rawDifferences.keys))
    }
}
