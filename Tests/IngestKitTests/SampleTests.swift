import Foundation
import Testing
@testable import IngestKit
import IngestTestSupport

/// Every sample in `Samples/` maps as Documentation/Command.md ("Samples") and
/// Documentation/Mappings.md say.
@Suite struct SampleTests {
    func sample(_ name: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("Samples/\(name)"), encoding: .utf8)
    }

    @Test func feedWithNamespacesCDATAAndEntities() throws {
        let sink = try mapXML(sample("feed.rss"), records: "rss/channel/item")
        #expect(sink.records.map(\.table) == ["item", "item"])
        #expect(sink.records.map { $0.fields["dc:creator"] } == [.text("Smith & Sons"), .text("Smith & Sons")])
        #expect(sink.records[0].fields["description"] == .text("First release: <b>streams</b> XML into SQLite."))
        #expect(sink.records[1].fields["title"] == .text("Zoë & Łukasz join"))
        #expect(sink.records[1].fields["description"] == .text("Two new maintainers 🎉"))
        #expect(sink.records[0].fields["guid"] == .json(##"{"@isPermaLink":"false","#text":"note-1"}"##, .object))
    }

    @Test func catalogWithAttributesAndNesting() throws {
        let sink = try mapXML(sample("catalog.xml"))
        #expect(sink.records.map(\.table) == ["catalog", "catalog", "catalog"])
        #expect(
            sink.records.map { $0.fields["id"] } == ["1", "2", "3"].map { .number(.init(text: $0, kind: .integer)) })
        #expect(sink.records[2].fields["authors"] == .json(#"["Terry Pratchett","Neil Gaiman"]"#, .array))
        #expect(sink.records[1].fields["isbn"] == .text("0062500000"))
        #expect(sink.records[0].fields["price"] == .json(##"{"@currency":"USD","#text":"39.99"}"##, .object))
    }
}
