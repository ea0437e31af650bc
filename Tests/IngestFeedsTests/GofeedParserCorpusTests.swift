import Foundation
import IngestFeeds
import IngestCore
import Testing

/// gofeed's parser corpus (`../shared/testdata/gofeed/parser`): 433 RSS and Atom
/// inputs (and the JSON Feed ones), each beside gofeed's format-specific model of
/// it. Not our model, but where the universal model takes a field unchanged
/// (titles, descriptions, summaries, content, links, ids) it must agree, and the
/// number of items must.
@Suite("gofeed's parser corpus", .enabled(if: GofeedData.isPresent, Comment(rawValue: GofeedData.absentMessage)))
struct GofeedParserCorpusTests {
    /// Text fields where we differ from gofeed's format parser, and why.
    static let knownDifferences: [String: String] = [
        "issue_275_extensions_and_source.xml entry.content":
            "type=\"application/atom+xml\" with escaped text: gofeed keeps the raw source (&lt;x/&gt;) when Base64 "
            + "decoding fails; we keep the text the XML says (<x/>)"
    ]

    /// The inputs that are not well-formed XML, read in recovering mode.
    static let illFormed: Set<String> = [
        "rss/issue_305_bare_ampersand.xml", "rss/issue_320_legacy_entity_prefix.xml",
        "rss/rss_channel_item_illegal_char.xml", "rss/rss_channel_language.xml",
        "atom/atom10_feed_entry_source_logo.xml", "atom/atom10_feed_entry_source_title_html_escaped_markup.xml",
        "atom/atom10_feed_entry_source_title_text.xml", "atom/atom10_feed_title_xhtml_escaped_markup.xml",
        "atom/atom10_feed_title_xhtml_inline_markup.xml"
    ]

    private static func member(_ value: JSONValue?, _ key: String) -> JSONValue? {
        guard case .object(let members)? = value else { return nil }
        return members.last { $0.key == key }?.value
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    @Test("every input parses; items, text fields and well-formedness agree with gofeed's parser")
    func corpus() throws {
        var inputs = 0, checks = 0
        var differences: Set<String> = []
        var notWellFormed: Set<String> = []
        for directory in ["rss", "atom"] {
            for input in GofeedData.files("parser/\(directory)", suffix: ".xml") {
                inputs += 1
                let parsed = try Feed(contentsOf: input)
                let expected = try JSONValue(
                    parsing: String(
                        contentsOf: input.deletingPathExtension().appendingPathExtension("json"), encoding: .utf8))
                if !parsed.wellFormed { notWellFormed.insert("\(directory)/\(input.lastPathComponent)") }
                func check(_ field: String, _ ours: String?, _ theirs: String?) {
                    guard let theirs else { return }
                    checks += 1
                    if (ours ?? "") != theirs { differences.insert("\(input.lastPathComponent) \(field)") }
                }
                let itemsKey = directory == "atom" ? "entries" : "items"
                var items: [JSONValue] = []
                if case .array(let list)? = Self.member(expected, itemsKey) { items = list }
                #expect(parsed.items.count == items.count, "\(input.lastPathComponent)")
                check("title", parsed.title?.value, Self.string(Self.member(expected, "title")))
                if directory == "atom" {
                    check("subtitle", parsed.description?.value, Self.string(Self.member(expected, "subtitle")))
                    check("rights", parsed.copyright, Self.string(Self.member(expected, "rights")))
                } else {
                    check("description", parsed.description?.value, Self.string(Self.member(expected, "description")))
                    check("link", parsed.link, Self.string(Self.member(expected, "link")))
                }
                for (item, theirs) in zip(parsed.items, items) {
                    check("entry.title", item.title?.value, Self.string(Self.member(theirs, "title")))
                    if directory == "atom" {
                        check("entry.summary", item.description?.value, Self.string(Self.member(theirs, "summary")))
                        check(
                            "entry.content", item.content?.value,
                            Self.string(Self.member(Self.member(theirs, "content"), "value")))
                        check("entry.id", item.guid, Self.string(Self.member(theirs, "id")))
                    } else {
                        check(
                            "item.description", item.description?.value, Self.string(Self.member(theirs, "description"))
                        )
                        check("item.content", item.content?.value, Self.string(Self.member(theirs, "content")))
                        check("item.link", item.link, Self.string(Self.member(theirs, "link")))
                    }
                }
            }
        }
        #expect(inputs >= 400)
        #expect(checks >= 150)
        #expect(differences == Set(Self.knownDifferences.keys))
        #expect(notWellFormed == Self.illFormed)
    }

    @Test("JSON Feed inputs parse to the versions they state")
    func jsonFeeds() throws {
        let inputs = GofeedData.files("parser/json", suffix: ".json").filter { !$0.path.hasSuffix("_expected.json") }
        #expect(inputs.count >= 3)
        for input in inputs {
            let parsed = try Feed(contentsOf: input)
            #expect(parsed.format.family == .json)
            #expect(
                input.lastPathComponent.contains("10") ? parsed.format.version == "1.0" : parsed.format.version == "1.1"
            )
        }
        #expect(throws: IngestError.self) {
            try Feed(contentsOf: GofeedData.root.appendingPathComponent("parser/json/invalid/invalid.json"))
        }
    }
}
