import Foundation
import Testing
@testable import IngestSchema
@testable import IngestSQLite
@testable import IngestCore
import IngestTesting
import IngestTestSupport

/// `Schemas/ingest-schema.schema.json` and the model in MappingSchema.swift describe
/// one format: these tests fail when either changes without the other.
@Suite("Mapping schema format: JSON Schema, decoder and paths")
struct MappingSchemaFormatTests {
    static let jsonSchemaURL = packageRoot.appendingPathComponent("Schemas/ingest-schema.schema.json")

    /// The JSON Schema, parsed.
    static func jsonSchema() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: jsonSchemaURL))
        return try #require(object as? [String: Any], "the JSON Schema is not an object")
    }

    /// The object at `path` (`$defs`, `entity`, …) inside the JSON Schema.
    static func object(_ path: String..., in schema: [String: Any]) throws -> [String: Any] {
        var object = schema
        for key in path {
            object = try #require(object[key] as? [String: Any], "no object at \(path.joined(separator: "/"))")
        }
        return object
    }

    /// The top level, `$defs/entity` and `$defs/field`, with the model's members.
    static func objects() throws -> [(name: String, object: [String: Any], keys: [String])] {
        let schema = try jsonSchema()
        return [
            ("top level", schema, MappingSchema.CodingKeys.allCases.map(\.stringValue)),
            (
                "$defs/entity", try object("$defs", "entity", in: schema),
                MappingSchema.Entity.CodingKeys.allCases.map(\.stringValue)
            ),
            (
                "$defs/field", try object("$defs", "field", in: schema),
                MappingSchema.Field.CodingKeys.allCases.map(\.stringValue)
            )
        ]
    }

    static func decode(_ json: String) throws -> MappingSchema {
        try JSONDecoder().decode(MappingSchema.self, from: Data(json.utf8))
    }

    /// A decoding error's own message.
    static func message(of error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?, .typeMismatch(_, let context)?, .valueNotFound(_, let context)?,
            .keyNotFound(_, let context)?:
            return context.debugDescription
        default:
            return "\(error)"
        }
    }

    /// Decodes `json`, returning the error message, or nil when it decodes.
    static func decodingProblem(_ json: Any) -> String? {
        do {
            let data = try JSONSerialization.data(withJSONObject: json)
            _ = try JSONDecoder().decode(MappingSchema.self, from: data)
            return nil
        } catch {
            return message(of: error)
        }
    }

    // MARK: The JSON Schema against the model

    @Test("The JSON Schema is draft 2020-12 and names itself")
    func header() throws {
        let schema = try Self.jsonSchema()
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let id = try #require(schema["$id"] as? String)
        #expect(id.hasSuffix("/Schemas/ingest-schema.schema.json"))
    }

    @Test("Top level, entity and field have exactly the members of the Swift CodingKeys")
    func propertiesAreTheCodingKeys() throws {
        for (name, object, keys) in try Self.objects() {
            let properties = try #require(object["properties"] as? [String: Any], "\(name) has no properties")
            #expect(Set(properties.keys) == Set(keys), "\(name)")
            #expect(properties.count == keys.count, "\(name)")
        }
    }

    @Test("Every object refuses unknown members, as rejectUnknownKeys does")
    func additionalPropertiesAreFalse() throws {
        for (name, object, _) in try Self.objects() {
            #expect(object["additionalProperties"] as? Bool == false, "\(name)")
            #expect(object["type"] as? String == "object", "\(name)")
        }
    }

    @Test("Every member has a description")
    func everyMemberIsDescribed() throws {
        for (name, object, _) in try Self.objects() {
            let properties = try #require(object["properties"] as? [String: [String: Any]], "\(name)")
            for (member, property) in properties {
                let description = property["description"] as? String ?? ""
                #expect(description.count > 20, "\(name)/\(member) has no useful description")
            }
        }
    }

    @Test("The type enum is ColumnType.allCases, in order, with a description for each")
    func typeEnumIsColumnType() throws {
        let type = try Self.object("$defs", "field", "properties", "type", in: Self.jsonSchema())
        let names = try #require(type["enum"] as? [String])
        #expect(names == ColumnType.allCases.map(\.rawValue))
        #expect((type["enumDescriptions"] as? [String])?.count == names.count)
    }

    @Test("children and entities refer to $defs/entity, fields to $defs/field")
    func references() throws {
        let schema = try Self.jsonSchema()
        func itemsReference(_ path: String...) throws -> String? {
            var object = schema
            for key in path { object = try #require(object[key] as? [String: Any], "\(path)") }
            return (object["items"] as? [String: Any])?["$ref"] as? String
        }
        #expect(try itemsReference("properties", "entities") == "#/$defs/entity")
        #expect(try itemsReference("$defs", "entity", "properties", "children") == "#/$defs/entity")
        #expect(try itemsReference("$defs", "entity", "properties", "fields") == "#/$defs/field")
    }

    /// Every member, each with a valid value: the top level, one entity with one child
    /// and one field per entity.
    static func everyMember() -> [String: Any] {
        let field: [String: Any] = [
            "name": "id", "source": "@id", "type": "integer", "format": "x",
            "required": true, "default": "0", "description": "d",
            "column": "c", "archiveKey": "a", "plistKey": "p"
        ]
        let child: [String: Any] = [
            "name": "tag", "records": "tags/tag", "fields": [["name": "tag", "source": "."]],
            "foreignKey": "person_id"
        ]
        let entity: [String: Any] = [
            "name": "person", "records": "people/person", "description": "d",
            "table": "people", "archiveClass": "Person", "fields": [field],
            "primaryKey": ["id"], "unique": [["id"]], "indexes": [["id"]],
            "children": [child], "foreignKey": "f"
        ]
        return ["$schema": "./ingest-schema.schema.json", "description": "d", "entities": [entity]]
    }

    @Test("`required` lists exactly the members the decoder cannot do without")
    func requiredIsWhatTheDecoderRequires() throws {
        let full = Self.everyMember()
        #expect(Self.decodingProblem(full) == nil)
        let schema = try Self.jsonSchema()
        // Removes one member of the top level, of the first entity or of its first field.
        let places: [(name: String, object: [String: Any], remove: (String) -> [String: Any])] = [
            ("top level", schema, { key in full.filter { $0.key != key } }),
            (
                "$defs/entity", try Self.object("$defs", "entity", in: schema),
                { key in
                    var top = full
                    let entity = (full["entities"] as! [[String: Any]])[0]
                    top["entities"] = [entity.filter { $0.key != key }]
                    return top
                }
            ),
            (
                "$defs/field", try Self.object("$defs", "field", in: schema),
                { key in
                    var top = full
                    var entity = (full["entities"] as! [[String: Any]])[0]
                    let field = (entity["fields"] as! [[String: Any]])[0]
                    entity["fields"] = [field.filter { $0.key != key }]
                    top["entities"] = [entity]
                    return top
                }
            )
        ]
        for (name, object, remove) in places {
            let properties = try #require(object["properties"] as? [String: Any])
            let required = try #require(object["required"] as? [String], "\(name) has no required")
            let neededByDecoder = properties.keys.filter { Self.decodingProblem(remove($0)) != nil }
            #expect(Set(required) == Set(neededByDecoder), "\(name)")
        }
    }

    @Test("The JSON Schema's own examples decode, and their paths parse")
    func examplesDecode() throws {
        let schema = try Self.jsonSchema()
        let examples = try #require(schema["examples"] as? [Any])
        #expect(!examples.isEmpty)
        for example in examples {
            #expect(Self.decodingProblem(example) == nil)
        }
        let entity = try Self.object("$defs", "entity", "properties", in: schema)
        for records in try #require(entity["records"] as? [String: Any])["examples"] as? [String] ?? [] {
            #expect(throws: Never.self, "\(records)") { _ = try SchemaPaths.records(records) }
        }
        let field = try Self.object("$defs", "field", "properties", in: schema)
        for source in try #require(field["source"] as? [String: Any])["examples"] as? [String] ?? [] {
            #expect(throws: Never.self, "\(source)") { _ = try SchemaPaths.source(source) }
        }
    }

    /// Paths that are right, and wrong, for SchemaPaths.
    static let recordsPaths = [
        "people/person", "/people/person", "person", "*/person", "people/*",
        "people/person[@type='admin']", "people/person[status=\"active\"]",
        "people/person[@type='admin'][status='active']", "person[address/@zip='12345']",
        "person[@href='a/b']",
        "", "/", "a//b", "//a", "a/", "a[@x='1']/b", "a[@x='1'", "a[@x='1']b"
    ]
    static let sourcePaths = [
        "firstName", "address/city", "@id", "address/@zip", ".", "a/b/c/@d",
        "", "a//b", "/a", "a/", "@", "a/@", "@a/b", "a/@b/c", "./a"
    ]

    /// A JSON Schema pattern, as an editor runs it (ECMA-262: unanchored search).
    static func matches(_ pattern: String, _ text: String) throws -> Bool {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    @Test("The records and source patterns never refuse a path SchemaPaths takes")
    func patternsAreNoStricterThanSchemaPaths() throws {
        let schema = try Self.jsonSchema()
        let records = try #require(
            Self.object("$defs", "entity", "properties", "records", in: schema)["pattern"] as? String)
        let source = try #require(
            Self.object("$defs", "field", "properties", "source", in: schema)["pattern"] as? String)
        for path in Self.recordsPaths {
            let parses = (try? SchemaPaths.records(path)) != nil
            let matches = try Self.matches(records, path)
            if parses { #expect(matches, "records \"\(path)\" parses but the pattern refuses it") }
        }
        for path in Self.sourcePaths {
            let parses = (try? SchemaPaths.source(path)) != nil
            let matches = try Self.matches(source, path)
            if parses { #expect(matches, "source \"\(path)\" parses but the pattern refuses it") }
        }
        // What the patterns are for: an editor flags these before ingest runs.
        for path in ["", "a//b", "a/", "a[@x='1']/b"] {
            #expect(try !Self.matches(records, path), "records \"\(path)\"")
        }
        for path in ["", "a//b", "/a", "a/", "@", "@a/b"] {
            #expect(try !Self.matches(source, path), "source \"\(path)\"")
        }
    }

    // MARK: Decoding

    @Test("A minimal schema decodes, with every optional member absent")
    func minimalSchemaDecodes() throws {
        let schema = try Self.decode(
            #"{"entities": [{"name": "person", "records": "people/person", "fields": [{"name": "firstName"}]}]}"#)
        #expect(
            schema
                == MappingSchema(entities: [
                    .init(name: "person", records: "people/person", fields: [.init(name: "firstName")])
                ]))
    }

    @Test("$schema and description are read")
    func schemaLinkIsRead() throws {
        let schema = try Self.decode(
            #"{"$schema": "./ingest-schema.schema.json", "description": "folks", "entities": []}"#)
        #expect(schema.schema == "./ingest-schema.schema.json")
        #expect(schema.description == "folks")
    }

    @Test("An unknown member is an error that lists the known ones")
    func unknownMemberFails() throws {
        let json = #"{"entities": [{"name": "p", "records": "p", "fields": [{"name": "a", "colum": "b"}]}]}"#
        let error = try #require(throws: DecodingError.self) { try Self.decode(json) }
        let message = Self.message(of: error)
        #expect(message.contains("unknown member \"colum\""), "\(message)")
        #expect(message.contains("column"), "\(message)")
        for json in [
            #"{"entities": [], "entity": []}"#,
            #"{"entities": [{"name": "p", "records": "p", "fields": [], "primarykey": "id"}]}"#
        ] {
            #expect(throws: DecodingError.self, "\(json)") { try Self.decode(json) }
        }
    }

    @Test("A primary key written as a string is a one-field key")
    func primaryKeyString() throws {
        let one = try Self.decode(#"{"entities": [{"name": "p", "records": "p", "fields": [], "primaryKey": "id"}]}"#)
        #expect(one.entities[0].primaryKey == ["id"])
        let two = try Self.decode(
            #"{"entities": [{"name": "p", "records": "p", "fields": [], "primaryKey": ["a", "b"]}]}"#)
        #expect(two.entities[0].primaryKey == ["a", "b"])
        #expect(throws: DecodingError.self) {
            try Self.decode(#"{"entities": [{"name": "p", "records": "p", "fields": [], "primaryKey": 1}]}"#)
        }
    }

    @Test(
        "A default is kept as the text it stands for",
        arguments: [
            (#""n/a""#, "n/a"), ("0", "0"), ("-12", "-12"), ("1.5", "1.5"), ("true", "true"), ("false", "false")
        ])
    func defaultValues(json: String, text: String) throws {
        let schema = try Self.decode(
            #"{"entities": [{"name": "p", "records": "p", "fields": [{"name": "a", "default": \#(json)}]}]}"#)
        #expect(schema.entities[0].fields[0].default == text)
    }

    @Test("A default that is an array or object is an error")
    func defaultMustBeScalar() throws {
        for json in ["[1]", "{}"] {
            let error = try #require(throws: DecodingError.self) {
                try Self.decode(
                    #"{"entities": [{"name": "p", "records": "p", "fields": [{"name": "a", "default": \#(json)}]}]}"#)
            }
            #expect(Self.message(of: error) == "a default is a string, number or boolean")
        }
    }

    @Test("An unknown type is an error that lists the eight types")
    func unknownTypeFails() throws {
        let error = try #require(throws: DecodingError.self) {
            try Self.decode(#"{"entities": [{"name": "p", "records": "p", "fields": [{"name": "a", "type": "int"}]}]}"#)
        }
        let message = Self.message(of: error)
        #expect(message.hasPrefix("\"int\" is not a type"), "\(message)")
        #expect(message.hasSuffix("text, integer, real, bool, date, datetime, data, json"), "\(message)")
        for type in ColumnType.allCases {
            #expect(message.contains(type.rawValue))
        }
    }

    @Test("Child entities nest, with their foreign key")
    func childrenNest() throws {
        let schema = try Self.decode(
            """
            {"entities": [{"name": "person", "records": "people/person", "primaryKey": "id",
              "fields": [{"name": "id", "source": "@id", "type": "integer", "required": true}],
              "children": [{"name": "tag", "records": "tags/tag", "foreignKey": "owner",
                "fields": [{"name": "tag", "source": "."}, {"name": "on", "type": "date", "format": "dd/MM/yyyy"}]}]}]}
            """)
        let child = try #require(schema.entities[0].children?.first)
        #expect(child.foreignKey == "owner")
        #expect(child.fields[1].type == .date)
        #expect(child.fields[1].format == "dd/MM/yyyy")
        #expect(schema.entities[0].fields[0].required == true)
    }

    // MARK: Paths

    @Test("A records path with an attribute predicate on its last step")
    func recordsWithPredicate() throws {
        let steps = try SchemaPaths.records("people/person[@type='admin']")
        #expect(
            steps == [
                SchemaPaths.Step(name: "people"),
                SchemaPaths.Step(
                    name: "person",
                    predicates: [
                        SchemaPaths.Predicate(
                            source: SchemaPaths.Source(elements: [], attribute: "type"), value: "admin")
                    ])
            ])
    }

    @Test("A child-element predicate, several predicates, a leading slash")
    func recordsVariants() throws {
        let steps = try SchemaPaths.records(#"/people/person[status="active"][ @type = 'admin' ]"#)
        #expect(steps.map(\.name) == ["people", "person"])
        #expect(
            steps[1].predicates == [
                SchemaPaths.Predicate(source: SchemaPaths.Source(elements: ["status"]), value: "active"),
                SchemaPaths.Predicate(source: SchemaPaths.Source(elements: [], attribute: "type"), value: "admin")
            ])
    }

    @Test("A predicate on a step before the last is an error")
    func predicateBeforeLastStep() throws {
        let problem = try #require(throws: SchemaPaths.Problem.self) {
            try SchemaPaths.records("people[@x='1']/person")
        }
        #expect(problem.message.contains("last step only"), "\(problem.message)")
    }

    @Test(
        "Malformed records paths are errors",
        arguments: ["", "a//b", "a/", "a[@x='1'", "a[@x=1]", "a[@x]", "a[.='x']", "a[@x='1']b"])
    func badRecords(path: String) throws {
        #expect(throws: SchemaPaths.Problem.self) { try SchemaPaths.records(path) }
    }

    @Test("Sources: an attribute below a child, the own text, an attribute, children")
    func sources() throws {
        #expect(try SchemaPaths.source("address/@zip") == SchemaPaths.Source(elements: ["address"], attribute: "zip"))
        let ownText = try SchemaPaths.source(".")
        #expect(ownText.isOwnText)
        #expect(ownText.description == ".")
        #expect(try SchemaPaths.source("@id") == SchemaPaths.Source(elements: [], attribute: "id"))
        #expect(try SchemaPaths.source("address/city") == SchemaPaths.Source(elements: ["address", "city"]))
        #expect(try SchemaPaths.source("address/@zip").description == "address/@zip")
    }

    @Test("Malformed sources are errors", arguments: ["a//b", "", "/a", "a/", "@", "a/@", "@a/b", "*", "a/./b"])
    func badSources(path: String) throws {
        #expect(throws: SchemaPaths.Problem.self) { try SchemaPaths.source(path) }
    }
}
