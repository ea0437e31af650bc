import Foundation
import Testing
@testable import IngestSchema
@testable import IngestSQLite
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// Runs `text` (XML or JSON) through a schema into a collecting sink.
func mapWithSchema(
    _ json: String, _ text: String, format: InputFormat = .xml, output: CompiledSchema.OutputKind = .database,
    chunkSize: Int = defaultChunkSize, rejects: RecordRejects? = nil
) throws -> CollectingSink {
    let schema = try CompiledSchema(
        JSONDecoder().decode(MappingSchema.self, from: Data(json.utf8)), file: "test.json", output: output)
    let sink = CollectingSink()
    let mapping = SchemaDocumentMapping(
        schema: schema, format: format, sink: sink, rejects: rejects ?? RecordRejects())
    let stack = try HandlerStack(mapping: mapping)
    if format == .xml {
        try ExpatParser(chunkSize: chunkSize).parse(bytes: Array(text.utf8), into: stack)
    } else {
        try JSONParser(documentName: "doc", lines: format == .jsonLines, chunkSize: chunkSize).parse(
            bytes: Array(text.utf8), into: stack)
    }
    try mapping.checkMatched()
    return sink
}

@Suite("Mapping schemas compiled into handlers")
struct SchemaMappingTests {
    static let people = """
        {"entities": [{"name": "person", "records": "people/person", "table": "people", "primaryKey": "id",
          "fields": [{"name": "id", "source": "@id", "type": "integer"},
                     {"name": "name", "source": "name/first"},
                     {"name": "score", "type": "real"},
                     {"name": "ok", "type": "bool", "default": "false"}],
          "children": [{"name": "tag", "records": "tags/tag", "fields": [{"name": "tag", "source": "."}]}]}]}
        """

    @Test(
        "values split across chunks of one byte come out whole and typed; children follow their parent with its key",
        arguments: [1, 7, defaultChunkSize])
    func splitText(chunkSize: Int) throws {
        let xml = """
            <people><person id=" 42 "><name><first>Zoë &amp; co</first></name><score>1e3</score>
            <tags><tag>a</tag><tag>b</tag></tags></person></people>
            """
        let sink = try mapWithSchema(Self.people, xml, chunkSize: chunkSize)
        #expect(sink.records.map(\.table) == ["people", "tag", "tag"])
        #expect(sink.records[0].order == ["id", "name", "score", "ok"])
        #expect(sink.records[0].fields["id"] == .number(.init(text: "42", kind: .integer)))
        #expect(sink.records[0].fields["name"] == .text("Zoë & co"))
        #expect(sink.records[0].fields["score"] == .number(.init(text: "1000.0", kind: .real)))
        #expect(sink.records[0].fields["ok"] == .bool(false))
        #expect(sink.records[1].order == ["person_id", "tag"])
        #expect(sink.records[1].fields["person_id"] == .number(.init(text: "42", kind: .integer)))
        #expect(sink.records[2].fields["tag"] == .text("b"))
    }

    @Test("JSON input: the same schema shape with members and item steps; scalars keep their types")
    func jsonInput() throws {
        let schema = Self.people.replacingOccurrences(of: "people/person", with: "people/item")
            .replacingOccurrences(of: "\"@id\"", with: "\"id\"").replacingOccurrences(of: "tags/tag", with: "tags/item")
        let json =
            #"{"people": [{"id": 7, "name": {"first": "A"}, "score": 2, "ok": true, "tags": ["x", "y"]}, {"id": 8, "tags": []}]}"#
        let sink = try mapWithSchema(schema, json, format: .json)
        #expect(sink.records.map(\.table) == ["people", "tag", "tag", "people"])
        #expect(sink.records[0].fields["ok"] == .bool(true))
        #expect(sink.records[0].fields["score"] == .number(.init(text: "2", kind: .real)))
        #expect(sink.records[2].fields["tag"] == .text("y"))
        #expect(sink.records[3].fields["name"] == .null)
    }

    @Test("predicates choose records by attribute and by child value")
    func predicates() throws {
        let schema =
            #"{"entities": [{"name": "a", "records": "r/e[@k='1'][s='on']", "fields": [{"name": "v", "source": "@v"}]}]}"#
        let xml =
            "<r><e k='1' v='a'><s>on</s></e><e k='2' v='b'><s>on</s></e><e k='1' v='c'><s>off</s></e><e k='1' v='d'><s>on</s></e></r>"
        let sink = try mapWithSchema(schema, xml)
        #expect(sink.records.map { $0.fields["v"] } == [.text("a"), .text("d")])
    }

    @Test("Unicode, empty elements and huge values")
    func edgeValues() throws {
        let schema =
            #"{"entities": [{"name": "a", "records": "r/e", "fields": [{"name": "t"}, {"name": "n", "type": "integer"}]}]}"#
        let huge = String(repeating: "ж", count: 200_000)
        let sink = try mapWithSchema(
            schema, "<r><e><t>\(huge)</t><n></n></e><e><t/><n>-9223372036854775808</n></e></r>")
        #expect(sink.records[0].fields["t"] == .text(huge))
        #expect(sink.records[0].fields["n"] == .null)
        #expect(sink.records[1].fields["t"] == .text(""))
        #expect(sink.records[1].fields["n"] == .number(.init(text: "-9223372036854775808", kind: .integer)))
    }

    @Test("per-output names: columns for databases, plist keys, archive keys")
    func outputNames() throws {
        let schema =
            #"{"entities": [{"name": "a", "records": "r/e", "fields": [{"name": "f", "column": "c", "plistKey": "p", "archiveKey": "k"}]}]}"#
        let xml = "<r><e><f>1</f></e></r>"
        #expect(try mapWithSchema(schema, xml, output: .database).records[0].order == ["c"])
        #expect(try mapWithSchema(schema, xml, output: .plist).records[0].order == ["p"])
        #expect(try mapWithSchema(schema, xml, output: .archive).records[0].order == ["k"])
        #expect(try mapWithSchema(schema, xml, output: .json).records[0].order == ["f"])
    }

    @Test("a child's bad value rejects its whole parent record, children included")
    func childRejectsParent() throws {
        let schema = Self.people.replacingOccurrences(
            of: #""source": "."}"#, with: #""source": ".", "type": "integer"}"#)
        let rejects = RecordRejects(mode: .skip)
        let xml = "<people><person id='1'><tags><tag>1</tag><tag>x</tag></tags></person><person id='2'/></people>"
        let sink = try mapWithSchema(schema, xml, rejects: rejects)
        #expect(sink.records.map { $0.fields["id"] } == [.number(.init(text: "2", kind: .integer))])
        #expect(rejects.count == 1)
    }

    @Test("with --on-error fail a rejection is a data error at the value's position")
    func failIsADataError() throws {
        let error = #expect(throws: IngestError.self) {
            try mapWithSchema(Self.people, "<people>\n  <person id='x'/></people>")
        }
        #expect(error?.kind == .data)
        #expect(error?.position?.line == 2)
        #expect(error?.message.contains("\"x\" is not an integer") == true)
    }

    @Test("the table design: typed columns, keys, a child table's foreign key")
    func tableDesign() throws {
        let schema = try CompiledSchema(
            JSONDecoder().decode(MappingSchema.self, from: Data(Self.people.utf8)), file: "t", output: .database)
        let design = try schema.tableDesign(upsert: true)
        #expect(design.upsert)
        #expect(design.tables.map(\.name) == ["people", "tag"])
        #expect(
            design.tables[0].columns == [
                .init(name: "id", type: .integer, notNull: true), .init(name: "name", type: .text),
                .init(name: "score", type: .real), .init(name: "ok", type: .bool)
            ])
        #expect(design.tables[0].primaryKey == ["id"])
        #expect(design.tables[0].childTables == ["tag"])
        #expect(
            design.tables[1].foreignKey
                == .init(column: "person_id", parentTable: "people", parentColumn: "id", type: .integer))
    }

    @Test("the SQLite design: typed columns, keys, foreign key, upsert clauses")
    func sqliteDesign() throws {
        let schema = try CompiledSchema(
            JSONDecoder().decode(MappingSchema.self, from: Data(Self.people.utf8)), file: "t", output: .database)
        let design = SQLiteDesign(try schema.tableDesign(upsert: true))
        #expect(
            design.statements[0]
                == #"CREATE TABLE IF NOT EXISTS "people" ("id" INTEGER NOT NULL, "name" TEXT, "score" REAL, "ok" INTEGER, PRIMARY KEY ("id"))"#
        )
        #expect(
            design.statements[1]
                == #"CREATE TABLE IF NOT EXISTS "tag" ("person_id" INTEGER NOT NULL REFERENCES "people" ("id") ON DELETE CASCADE, "tag" TEXT)"#
        )
        // A keyed table updates by its key; the clause names the columns each record carries (SQLiteTable).
        #expect(design.upsertKeys["people"] == ["id"])
        #expect(design.conflictClauses["people"] == nil)
        // A keyless child row is kept once: a re-run adds the new ones and deletes none.
        #expect(
            design.statements.contains(
                #"CREATE UNIQUE INDEX IF NOT EXISTS "tag_rows" ON "tag" ("person_id", ("tag" IS NULL), ifnull("tag", 0))"#
            ))
        #expect(design.conflictClauses["tag"] == "ON CONFLICT DO NOTHING")
        #expect(design.enforcesForeignKeys)
    }
}

@Suite("Field types: what each accepts and stores")
struct FieldConverterTests {
    func convert(_ text: String, _ type: ColumnType, format: String? = nil, kind: ContentKind = .markup)
        throws(FieldConverter.Mismatch) -> FieldValue?
    {
        var bytes = Array(text.utf8)
        let converter = FieldConverter(type: type, format: format)
        return try bytes.withUnsafeMutableBufferPointer { buffer throws(FieldConverter.Mismatch) in
            try converter.convert(UnsafeBufferPointer(buffer), kind: kind)
        }
    }

    @Test func integers() throws {
        #expect(try convert("+7", .integer) == .number(.init(text: "7", kind: .integer)))
        #expect(try convert(" 007\n", .integer) == .number(.init(text: "7", kind: .integer)))
        #expect(
            try convert("9223372036854775807", .integer) == .number(.init(text: "9223372036854775807", kind: .integer)))
        for bad in ["9223372036854775808", "1.5", "1e3", "x", "0x10"] {
            #expect(throws: FieldConverter.Mismatch.self) { try convert(bad, .integer) }
        }
        #expect(throws: FieldConverter.Mismatch.self) { try convert("true", .integer, kind: .boolean) }
    }

    @Test func reals() throws {
        #expect(try convert("1.50", .real) == .number(.init(text: "1.5", kind: .real)))
        #expect(try convert("-2", .real) == .number(.init(text: "-2", kind: .real)))
        for bad in ["inf", "nan", "0x1p3", "1,5", "1e999"] {
            #expect(throws: FieldConverter.Mismatch.self) { try convert(bad, .real) }
        }
    }

    @Test func booleans() throws {
        #expect(try convert("1", .bool) == .bool(true))
        #expect(try convert("false", .bool) == .bool(false))
        #expect(throws: FieldConverter.Mismatch.self) { try convert("yes", .bool) }
    }

    @Test func dates() throws {
        #expect(try convert("2024-02-29", .date) == .text("2024-02-29"))
        #expect(throws: FieldConverter.Mismatch.self) { try convert("2023-02-29", .date) }
        #expect(try convert("29/02/2024", .date, format: "dd/MM/yyyy") == .text("2024-02-29"))
        #expect(try convert("2024-05-01T09:30:00+02:00", .datetime) == .text("2024-05-01T07:30:00Z"))
        #expect(try convert("2024-05-01T09:30:00", .datetime) == .text("2024-05-01T09:30:00Z"))
        #expect(try convert("2024-05-01T09:30:00.5Z", .datetime) == .text("2024-05-01T09:30:00.5Z"))
        #expect(try convert("01.05.2024 09:30", .datetime, format: "dd.MM.yyyy HH:mm") == .text("2024-05-01T09:30:00Z"))
        #expect(throws: FieldConverter.Mismatch.self) { try convert("yesterday", .datetime) }
    }

    @Test func dataAndMissing() throws {
        #expect(try convert("AAEC\n/w==", .data) == .data([0, 1, 2, 0xFF]))
        #expect(throws: FieldConverter.Mismatch.self) { try convert("A*==", .data) }
        #expect(try convert("", .integer) == nil)
        #expect(try convert("", .text) == .text(""))
        #expect(try convert("", .text, kind: .null) == nil)
    }
}
