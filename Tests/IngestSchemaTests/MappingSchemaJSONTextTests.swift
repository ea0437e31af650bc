import Foundation
import Testing
@testable import IngestSchema
@testable import IngestSQLite
@testable import IngestCore
import IngestTesting
import IngestTestSupport

@Suite("Mapping schema JSON text")
struct MappingSchemaJSONTextTests {
    @Test("Members in the model's order, absent ones left out, fields one to a line")
    func layout() throws {
        let schema = MappingSchema(entities: [
            .init(
                name: "people", records: "people/person", table: "people",
                fields: [
                    .init(name: "id", source: "@id", type: .integer),
                    .init(name: "firstName", source: "firstName", type: .text)
                ])
        ])
        #expect(
            schema.jsonText == """
                {
                  "entities": [
                    {
                      "name": "people",
                      "records": "people/person",
                      "table": "people",
                      "fields": [
                        {"name": "id", "source": "@id", "type": "integer"},
                        {"name": "firstName", "source": "firstName", "type": "text"}
                      ]
                    }
                  ]
                }

                """)
    }

    @Test("Every member reads back as written")
    func roundTrip() throws {
        let field = MappingSchema.Field(
            name: "born", source: "birth/@date", type: .date, format: "dd/MM/yyyy",
            required: true, default: "01/01/1970", column: "born_on", archiveKey: "b",
            plistKey: "Born", description: "when \"born\"\n")
        let child = MappingSchema.Entity(name: "tag", records: "tags/tag", fields: [.init(name: "tag", source: ".")])
        let schema = MappingSchema(
            entities: [
                .init(
                    name: "person", records: "people/person[@type='admin']", table: "people", archiveClass: "Person",
                    fields: [field], primaryKey: ["id"], unique: [["a", "b"]], indexes: [["born"]],
                    children: [child], foreignKey: "person_id", description: "Zoë's")
            ],
            schema: "Schemas/ingest-schema.schema.json", description: "all of it")
        let decoded = try JSONDecoder().decode(MappingSchema.self, from: Data(schema.jsonText.utf8))
        #expect(decoded == schema)
    }

    @Test("Pretty text: long scalar lists wrap, empty containers stay short")
    func prettyText() {
        let long = JSONValue.array((0..<40).map { .number(String($0)) })
        #expect(long.prettyText().split(separator: "\n").count == 42)
        #expect(JSONValue.object([("a", .array([])), ("b", .object([]))]).prettyText() == "{\"a\": [], \"b\": {}}")
    }
}
