import Foundation
import GRDB
import Testing
@testable import IngestSchema
@testable import IngestSQLite
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// Samples `text`, written to a file called `name`, and returns the inference.
func infer(
    _ text: String, name: String = "doc.xml", records: String? = nil, format: InputFormat? = nil,
    sample: Int = SchemaInference.defaultSampleSize
) throws -> SchemaInference {
    let directory = try TemporaryDirectory()
    let path = directory.path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let inference = SchemaInference(
        options: .init(recordPath: try records.map(RecordPath.init), format: format),
        sampleSize: sample)
    try inference.add(InputFile(path: path))
    return inference
}

extension MappingSchema {
    func entity(_ name: String) -> Entity? { entities.first { $0.name == name } }
}

extension MappingSchema.Entity {
    /// `name source type` per field, for compact expectations.
    var summary: [String] {
        fields.map {
            "\($0.name) \($0.source ?? "-") \($0.type?.rawValue ?? "-")" + ($0.column.map { " column \($0)" } ?? "")
        }
    }
}

@Suite("Schema inference")
struct SchemaInferenceTests {
    @Test("folks.xml: entity people, records people/person, two text fields")
    func folks() throws {
        let inference = SchemaInference()
        try inference.add(InputFile(path: folksURL.path))
        let schema = inference.schema
        #expect(schema.entities.count == 1)
        let people = try #require(schema.entity("people"))
        #expect(people.records == "people/person")
        #expect(people.table == "people")
        #expect(people.summary == ["firstName firstName text", "lastName lastName text"])
        #expect(people.fields.allSatisfy { $0.required == nil }, "a sample cannot prove a field is required")
        #expect(inference.recordCount == 3)
        #expect(inference.warnings.isEmpty)
    }

    @Test("XML: attributes, nested children, reals, and a column that turns to text")
    func xmlTypes() throws {
        let xml = """
            <catalog>
              <book id="1"><price>9.5</price><tags><tag>a</tag><tag>b</tag></tags><code>7</code><note/></book>
              <book id="2"><price>12</price><tags><tag>c</tag></tags><code>A7</code><note/></book>
            </catalog>
            """
        let book = try #require(try infer(xml).schema.entity("catalog"))
        #expect(book.records == "catalog/book")
        #expect(
            book.summary == ["id @id integer", "price price real", "tags tags json", "code code text", "note note text"]
        )
    }

    @Test("A record's own text has the source .")
    func ownText() throws {
        let tags = try #require(try infer("<tags><tag>swift</tag><tag>xml</tag></tags>").schema.entity("tags"))
        #expect(tags.records == "tags/tag")
        #expect(tags.summary == ["tag . text"])
    }

    @Test("JSON: booleans, nulls and nested objects; {\"people\":[...]} is people/item")
    func jsonTypes() throws {
        let json = #"""
            {"people": [
              {"id": 1, "active": true, "nick": null, "address": {"city": "X"}, "score": 1, "tags": ["a"]},
              {"id": 2, "active": false, "nick": null, "address": {"city": "Y"}, "score": true, "tags": []}
            ]}
            """#
        let people = try #require(try infer(json, name: "folks.json").schema.entity("people"))
        #expect(people.records == "people/item")
        #expect(people.table == "people")
        #expect(
            people.summary == [
                "id id integer", "active active bool", "nick nick text", "address address json",
                "score score integer", "tags tags json"
            ])
    }

    @Test("JSON: a top-level array and JSON Lines are records at item, in a table named after the input")
    func topLevelArray() throws {
        let array = try infer(#"[{"a": 1}, {"a": 2.5}]"#, name: "values.json").schema
        #expect(array.entities.map(\.name) == ["values"])
        #expect(array.entities.first?.records == "item")
        #expect(array.entities.first?.summary == ["a a real"])
        let lines = try infer("{\"n\":\"x\"}\n{\"n\":\"y\"}\n", name: "events.ndjson").schema
        #expect(lines.entities.map(\.records) == ["item"])
        #expect(lines.entities.map(\.table) == ["events"])
        let scalars = try infer("[1, 2, 3]", name: "numbers.json").schema
        #expect(scalars.entities.first?.summary == ["item . integer"], "a scalar item is the record's own value")
    }

    @Test("JSON: a document that is one record has the records path .")
    func wholeDocument() throws {
        let config = try #require(
            try infer(#"{"name": "ingest", "version": 2}"#, name: "config.json").schema.entity("config"))
        #expect(config.records == ".")
        #expect(config.summary == ["name name text", "version version integer"])
    }

    @Test("--sample 1 sees only the first record, and stops before anything malformed after it")
    func sampleOfOne() throws {
        let xml = #"<r><x a="1"/><x a="b" extra="1"/><broken></r>"#
        let inference = try infer(xml, sample: 1)
        #expect(inference.recordCount == 1)
        #expect(inference.schema.entity("r")?.summary == ["a @a integer"])
        #expect(throws: IngestError.self, "the whole input is malformed") { try infer(xml, sample: 0) }
        let all = try infer(#"<r><x a="1"/><x a="b" extra="1"/></r>"#, sample: 0)
        #expect(all.schema.entity("r")?.summary == ["a @a text", "extra @extra integer"])
    }

    @Test("--records: the path as given, a last * replaced by each record element's name")
    func recordPath() throws {
        let rss = try infer(
            String(contentsOf: packageRoot.appendingPathComponent("Samples/feed.rss"), encoding: .utf8),
            name: "feed.rss", records: "rss/channel/item"
        ).schema
        #expect(rss.entities.map(\.name) == ["item"])
        #expect(rss.entities.first?.records == "rss/channel/item")
        #expect(rss.entities.first?.fields.map(\.name) == ["title", "guid", "dc:creator", "description"])
        let any = try infer(#"<root><a x="1"/><b y="2"/></root>"#, records: "root/*").schema
        #expect(any.entities.map { "\($0.name) \($0.records)" } == ["a root/a", "b root/b"])
        let json = try infer(
            #"{"data": {"results": [{"id": 1}, {"id": 2}]}}"#, name: "export.json",
            records: "data/results/item"
        ).schema
        #expect(json.entities.map { "\($0.name) \($0.records)" } == ["results data/results/item"])
    }

    @Test("A collection that turns out to hold other things: each kind its own entity")
    func impureCollection() throws {
        let schema = try infer(#"<root><row a="1"/><row a="2"/><meta>x</meta></root>"#).schema
        #expect(schema.entities.map { "\($0.name) \($0.records)" } == ["row root/row", "meta root/meta"])
        #expect(schema.entity("meta")?.summary == ["meta . text"])
    }

    @Test("Several inputs make one schema: a table met twice widens, its fields in first-met order")
    func severalInputs() throws {
        let directory = try TemporaryDirectory()
        try Data(#"<people><person><id>1</id><name>A</name></person></people>"#.utf8).write(
            to: directory.url.appendingPathComponent("a.xml"))
        try Data(#"<people><person><id>x2</id><born>1970</born></person></people>"#.utf8).write(
            to: directory.url.appendingPathComponent("b.xml"))
        let inference = SchemaInference()
        try inference.add(InputFile(path: directory.path("a.xml")))
        try inference.add(InputFile(path: directory.path("b.xml")))
        #expect(inference.schema.entities.count == 1)
        #expect(inference.schema.entity("people")?.summary == ["id id text", "name name text", "born born integer"])
        #expect(inference.recordCount == 2)
        #expect(inference.inputNames == [directory.path("a.xml"), directory.path("b.xml")])
    }

    @Test("What a schema cannot say is a warning; a name SQLite takes for another gets its column")
    func warningsAndColumns() throws {
        let json = try infer(#"[{"a/b": 1, "@c": 2, "": 3, "id": 4, "ID": 5}]"#, name: "odd.json")
        #expect(
            json.schema.entity("odd")?.summary == [
                "a/b a/b integer", "@c @c integer", "  integer",
                "id id integer", "ID ID integer column ID_2"
            ])
        #expect(json.warnings.count == 3)
        #expect(json.warnings.allSatisfy { $0.hasPrefix("odd.") })
        let mixed = try infer(#"<r><x id="1"/><x><id>2</id></x></r>"#)
        #expect(mixed.schema.entity("r")?.summary == ["id @id integer"])
        #expect(mixed.warnings.count == 1)
    }

    @Test("An input without records gives no entities")
    func noRecords() throws {
        let inference = try infer("<people/>")
        #expect(inference.schema.entities.isEmpty)
        #expect(inference.recordCount == 0)
    }

    @Test(
        "The inferred schema names the tables, columns and types the automatic mapping creates",
        arguments: [("catalog.xml", nil), ("feed.rss", "rss/channel/item"), ("folks.json", nil), ("folks.xml", nil)]
            as [(String, String?)])
    func parityWithSQLite(sample: String, records: String?) throws {
        let path = packageRoot.appendingPathComponent("Samples/\(sample)").path
        let options = Importer.Options(recordPath: try records.map(RecordPath.init))
        let inference = SchemaInference(options: options, sampleSize: 0)
        try inference.add(InputFile(path: path))
        let schema = inference.schema

        let queue = try DatabaseQueue()
        var tables: [String] = []
        try queue.inDatabase { db in
            let sink = SQLiteSink(database: db)
            try Importer(options: options).read(InputFile(path: path), into: sink)
            try sink.finish()
            tables = sink.tableSummaries.map(\.name)
        }
        #expect(schema.entities.map(\.name) == tables)
        for entity in schema.entities {
            #expect((try? SchemaPaths.records(entity.records)) != nil, "records \(entity.records) parses")
            let columns = try queue.read { db in try db.columns(in: entity.table ?? entity.name) }
            #expect(entity.fields.map { $0.column ?? $0.name } == columns.map(\.name))
            let declared: [String] = entity.fields.map {
                switch $0.type ?? .text {
                case .integer, .bool: "INTEGER"
                case .real: "REAL"
                default: "TEXT"
                }
            }
            #expect(declared == columns.map(\.type))
            for field in entity.fields {
                #expect(
                    (try? SchemaPaths.source(field.source ?? field.name)) != nil, "source \(field.source ?? "") parses")
            }
        }
    }
}
