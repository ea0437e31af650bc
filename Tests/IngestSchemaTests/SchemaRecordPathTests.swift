import Foundation
import Testing
@testable import IngestSchema
@testable import IngestCore
import IngestTestSupport

/// Entities whose records paths nest (item 2), and records paths that match
/// nothing (item 1) — issue 15.
@Suite("Schema records paths: nested entities, paths that match nothing")
struct SchemaRecordPathTests {
    static let channelAndItems = """
        {"entities": [
          {"name": "channel", "records": "rss/channel", "table": "channel", "fields": [{"name": "title"}, {"name": "link"}]},
          {"name": "item", "records": "rss/channel/item", "table": "item", "fields": [{"name": "title"}, {"name": "guid"}]}]}
        """
    static let feed = """
        <rss><channel><title>Feed</title><link>L</link>
        <item><title>one</title><guid>1</guid></item><item><title>two</title><guid>2</guid></item>
        </channel></rss>
        """

    @Test(
        "An entity at rss/channel and one at rss/channel/item both get their records, in either order of declaration",
        arguments: [false, true], [1, defaultChunkSize])
    func nestedEntities(reversed: Bool, chunkSize: Int) throws {
        let channel =
            #"{"name": "channel", "records": "rss/channel", "table": "channel", "fields": [{"name": "title"}, {"name": "link"}]}"#
        let item =
            #"{"name": "item", "records": "rss/channel/item", "table": "item", "fields": [{"name": "title"}, {"name": "guid"}]}"#
        let schema = #"{"entities": [\#(reversed ? item : channel), \#(reversed ? channel : item)]}"#
        let sink = try mapWithSchema(schema, Self.feed, chunkSize: chunkSize)
        #expect(sink.records.map(\.table) == ["item", "item", "channel"])
        #expect(sink.records.map { $0.fields["title"] } == [.text("one"), .text("two"), .text("Feed")])
        #expect(sink.records[2].fields["link"] == .text("L"))
        #expect(sink.records[1].fields["guid"] == .text("2"))
    }

    @Test(
        "Three levels, and an element two entities read: the channel's field from its first item, the items, their categories"
    )
    func sharedChild() throws {
        let schema = """
            {"entities": [
              {"name": "channel", "records": "rss/channel", "table": "channel",
               "fields": [{"name": "title"}, {"name": "first", "source": "item/title"}]},
              {"name": "item", "records": "rss/channel/item", "table": "item", "fields": [{"name": "title"}]},
              {"name": "category", "records": "rss/channel/item/category", "table": "category", "fields": [{"name": "name", "source": "."}]}]}
            """
        let feed = """
            <rss><channel><title>Feed</title>
            <item><title>one</title><category>a</category><category>b</category></item>
            <item><title>two</title><category>c</category></item></channel></rss>
            """
        let sink = try mapWithSchema(schema, feed)
        #expect(sink.records.map(\.table) == ["category", "category", "item", "category", "item", "channel"])
        #expect(sink.records.filter { $0.table == "item" }.map { $0.fields["title"] } == [.text("one"), .text("two")])
        #expect(
            sink.records.filter { $0.table == "category" }.map { $0.fields["name"] } == [
                .text("a"), .text("b"), .text("c")
            ])
        #expect(sink.records.last?.fields["first"] == .text("one"))
        #expect(sink.records.last?.fields["title"] == .text("Feed"))
    }

    @Test("JSON: an entity at data and one at data/tags/item (scalars) both get their records")
    func nestedJSON() throws {
        let schema = """
            {"entities": [
              {"name": "data", "records": "data", "table": "data", "fields": [{"name": "name"}]},
              {"name": "tag", "records": "data/tags/item", "table": "tag", "fields": [{"name": "tag", "source": "."}]}]}
            """
        let sink = try mapWithSchema(schema, #"{"data": {"name": "x", "tags": ["a", "b"], "more": 1}}"#, format: .json)
        #expect(sink.records.map(\.table) == ["tag", "tag", "data"])
        #expect(sink.records.map { $0.fields["tag"] ?? $0.fields["name"] } == [.text("a"), .text("b"), .text("x")])
    }

    @Test(
        "A records path that matches no record: .data naming the schema's paths and suggesting the records'",
        arguments: [
            (
                "rss/channel/itme",
                "no record matches the schema's records path rss/channel/itme in test.json: the records' parent holds none"
            ),
            (
                "rs/channel/item",
                "the document element is <rss>, but the schema's records path rs/channel/item starts at <rs> in test.json"
            ),
            ("rss/chanel/item", "no element matches the schema's records path rss/chanel/item in test.json")
        ])
    func unmatched(path: String, message: String) throws {
        let schema = #"{"entities": [{"name": "item", "records": "\#(path)", "fields": [{"name": "title"}]}]}"#
        let error = #expect(throws: IngestError.self) { try mapWithSchema(schema, Self.feed) }
        #expect(error?.kind == .data)
        #expect(error?.message == message)
        #expect(error?.reason == .schemaRecordsMatchedNothing([path], suggestions: ["rss/channel/item", "rss/channel"]))
    }

    @Test("JSON: suggestions are written below the top-level value")
    func unmatchedJSON() throws {
        let schema = #"{"entities": [{"name": "p", "records": "people/persn", "fields": [{"name": "a"}]}]}"#
        let error = #expect(throws: IngestError.self) {
            try mapWithSchema(schema, #"{"people": [{"a": 1}, {"a": 2}]}"#, format: .json)
        }
        #expect(error?.reason == .schemaRecordsMatchedNothing(["people/persn"], suggestions: ["people/item"]))
    }

    @Test("Records rejected (--on-error skip) still count as matched: no matched-nothing error")
    func rejectedRecordsMatched() throws {
        let schema =
            #"{"entities": [{"name": "p", "records": "people/person", "fields": [{"name": "firstName", "type": "integer"}]}]}"#
        let rejects = RecordRejects(mode: .skip)
        let sink = try mapWithSchema(schema, try String(contentsOf: folksURL, encoding: .utf8), rejects: rejects)
        #expect(sink.records.isEmpty)
        #expect(rejects.count == 3)
    }
}
