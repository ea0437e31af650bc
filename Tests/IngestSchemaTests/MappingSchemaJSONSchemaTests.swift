import Foundation
import Testing
@testable import IngestSchema
@testable import IngestSQLite
@testable import IngestCore
import IngestTesting
import IngestTestSupport

/// Python's `jsonschema` module, which checks `Schemas/ingest-schema.schema.json` the
/// way an editor reads it: `pip install jsonschema` (or `apt-get install
/// python3-jsonschema`) to run these tests.
enum PythonJSONSchema {
    static let isAvailable: Bool = (try? run(["-c", "import jsonschema"]).status == 0) ?? false
    static let absentMessage =
        "Python's jsonschema module is not importable (python3 -c 'import jsonschema' fails): pip install jsonschema to check Schemas/ingest-schema.schema.json; skipped"

    /// Checks the JSON Schema at `schema` with `Draft202012Validator.check_schema`, then
    /// validates each of `files` against it.
    static let script = """
        import json, sys, jsonschema
        with open(sys.argv[1], encoding="utf-8") as f: schema = json.load(f)
        result = {"schema": None, "files": {}}
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as error:
            result["schema"] = error.message
        validator = jsonschema.Draft202012Validator(schema)
        for path in sys.argv[2:]:
            with open(path, encoding="utf-8") as f: instance = json.load(f)
            result["files"][path] = ["/" + "/".join(map(str, e.absolute_path)) + ": " + e.message
                                     for e in validator.iter_errors(instance)]
        print(json.dumps(result))
        """

    struct Result: Decodable {
        /// Why the JSON Schema itself is not a valid draft 2020-12 schema, or nil.
        var schema: String?
        /// Each file's problems, empty when it is valid.
        var files: [String: [String]]
    }

    static func validate(_ files: [String], against schema: URL = MappingSchemaFormatTests.jsonSchemaURL) throws
        -> Result
    {
        let (status, output, errors) = try run(["-c", script, schema.path] + files)
        guard status == 0 else {
            throw IngestError(.input, "python3 exited \(status): \(String(decoding: errors, as: UTF8.self))")
        }
        return try JSONDecoder().decode(Result.self, from: output)
    }

    /// Runs python3 with `arguments`: its exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: Data, errors: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, outputData, errorData)
    }
}

/// The JSON Schema as a JSON Schema validator reads it, against the Swift decoder.
@Suite(
    "Mapping schema format: Python jsonschema",
    .enabled(if: PythonJSONSchema.isAvailable, Comment(rawValue: PythonJSONSchema.absentMessage)))
struct MappingSchemaJSONSchemaTests {
    /// A mapping schema using most of the format, as a user would write one.
    static let sample = """
        {
          "$schema": "./ingest-schema.schema.json",
          "description": "People and their tags",
          "entities": [{
            "name": "person",
            "records": "people/person[@type='admin']",
            "table": "people",
            "archiveClass": "Person",
            "primaryKey": "id",
            "unique": [["lastName", "firstName"]],
            "indexes": [["lastName"]],
            "fields": [
              {"name": "id", "source": "@id", "type": "integer", "required": true},
              {"name": "firstName", "required": true, "archiveKey": "first", "plistKey": "first"},
              {"name": "lastName", "column": "last_name", "description": "the family name"},
              {"name": "zip", "source": "address/@zip", "default": 0},
              {"name": "active", "type": "bool", "default": true},
              {"name": "born", "type": "date", "format": "dd/MM/yyyy"},
              {"name": "seen", "type": "datetime"},
              {"name": "score", "type": "real", "default": 1.5},
              {"name": "photo", "type": "data"},
              {"name": "extra", "type": "json", "default": "n/a"}
            ],
            "children": [{
              "name": "tag", "records": "tags/tag", "table": "tags", "foreignKey": "person_id",
              "fields": [{"name": "tag", "source": "."}, {"name": "kind", "type": "text"}]
            }]
          }]
        }
        """

    /// Files the Swift side refuses, and the JSON Schema must refuse too.
    static let refused: [(name: String, json: String)] = [
        ("misspelt-member", #"{"entities": [{"name": "p", "records": "p", "fields": [{"name": "a", "colum": "b"}]}]}"#),
        ("unknown-top-level-member", #"{"entities": [], "entity": []}"#),
        ("unknown-type", #"{"entities": [{"name": "p", "records": "p", "fields": [{"name": "a", "type": "int"}]}]}"#),
        ("no-records", #"{"entities": [{"name": "p", "fields": []}]}"#),
        ("no-fields", #"{"entities": [{"name": "p", "records": "p"}]}"#),
        ("no-field-name", #"{"entities": [{"name": "p", "records": "p", "fields": [{"source": "@id"}]}]}"#),
        ("no-entities", #"{"description": "nothing"}"#),
        ("numeric-primary-key", #"{"entities": [{"name": "p", "records": "p", "fields": [], "primaryKey": 1}]}"#),
        ("array-default", #"{"entities": [{"name": "p", "records": "p", "fields": [{"name": "a", "default": [1]}]}]}"#),
        (
            "string-required",
            #"{"entities": [{"name": "p", "records": "p", "fields": [{"name": "a", "required": "yes"}]}]}"#
        ),
        (
            "unknown-child-member",
            #"{"entities": [{"name": "p", "records": "p", "fields": [], "children": [{"name": "c", "records": "c", "fields": [], "foreign_key": "x"}]}]}"#
        ),
        ("double-slash-records", #"{"entities": [{"name": "p", "records": "people//person", "fields": []}]}"#),
        (
            "predicate-before-last-step",
            #"{"entities": [{"name": "p", "records": "people[@x='1']/person", "fields": []}]}"#
        ),
        (
            "double-slash-source",
            #"{"entities": [{"name": "p", "records": "p", "fields": [{"name": "a", "source": "a//b"}]}]}"#
        )
    ]

    /// Whether the Swift side takes `json`: the decoder, then SchemaPaths on every path.
    static func swiftProblem(_ json: Data) -> String? {
        func check(_ entity: MappingSchema.Entity) throws(SchemaPaths.Problem) {
            _ = try SchemaPaths.records(entity.records)
            for field in entity.fields { _ = try SchemaPaths.source(field.source ?? field.name) }
            for child in entity.children ?? [] { try check(child) }
        }
        do {
            let schema = try JSONDecoder().decode(MappingSchema.self, from: json)
            for entity in schema.entities { try check(entity) }
            return nil
        } catch let problem as SchemaPaths.Problem {
            return problem.message
        } catch {
            return MappingSchemaFormatTests.message(of: error)
        }
    }

    @Test("The JSON Schema is a valid draft 2020-12 schema")
    func jsonSchemaIsValid() throws {
        let result = try PythonJSONSchema.validate([])
        #expect(result.schema == nil, "check_schema: \(result.schema ?? "")")
    }

    @Test("Every mapping schema in Schemas/, the JSON Schema's examples and a sample validate, and Swift reads them")
    func mappingSchemasValidate() throws {
        let directory = try TemporaryDirectory()
        let schemas = packageRoot.appendingPathComponent("Schemas")
        var files = try FileManager.default.contentsOfDirectory(atPath: schemas.path)
            .filter { $0.hasSuffix(".json") && $0 != MappingSchemaFormatTests.jsonSchemaURL.lastPathComponent }
            .sorted()
            .map { schemas.appendingPathComponent($0).path }
        // Schemas/ may hold no mapping schema yet: the sample and the examples are always checked.
        let sample = directory.path("sample.json")
        try Data(Self.sample.utf8).write(to: URL(fileURLWithPath: sample))
        files.append(sample)
        let examples = try #require(MappingSchemaFormatTests.jsonSchema()["examples"] as? [Any])
        for (index, example) in examples.enumerated() {
            let path = directory.path("example-\(index).json")
            try JSONSerialization.data(withJSONObject: example).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }

        let result = try PythonJSONSchema.validate(files)
        #expect(result.schema == nil, "check_schema: \(result.schema ?? "")")
        for file in files {
            let problems = try #require(result.files[file], "\(file) was not validated")
            #expect(problems == [], "\(file)")
            let swiftProblem = Self.swiftProblem(try Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(swiftProblem == nil, "\(file): \(swiftProblem ?? "")")
        }
    }

    @Test("Files the Swift side refuses are invalid against the JSON Schema too")
    func refusedFilesAreInvalid() throws {
        let directory = try TemporaryDirectory()
        var files: [String: String] = [:]
        for (name, json) in Self.refused {
            let path = directory.path("\(name).json")
            try Data(json.utf8).write(to: URL(fileURLWithPath: path))
            files[name] = path
            #expect(Self.swiftProblem(Data(json.utf8)) != nil, "Swift takes \(name)")
        }
        let result = try PythonJSONSchema.validate(Self.refused.map { files[$0.name]! })
        for (name, _) in Self.refused {
            let problems = try #require(result.files[files[name]!], "\(name) was not validated")
            #expect(!problems.isEmpty, "the JSON Schema takes \(name)")
        }
    }
}
