import Foundation
import Testing

/// What `ingest schema infer` prints, as far as these tests look.
private struct InferredSchema: Decodable {
    struct Entity: Decodable {
        var name: String
        var records: String
        var table: String?
        var fields: [Field]
    }
    struct Field: Decodable, Equatable {
        var name: String
        var source: String?
        var type: String?
        var required: Bool?
    }
    var entities: [Entity]
}

private func decodeSchema(_ data: Data) throws -> InferredSchema {
    try JSONDecoder().decode(InferredSchema.self, from: data)
}

@Suite("ingest schema infer")
struct SchemaInferCLITests {
    @Test("folks.xml: exits 0 and prints a schema that decodes: people at people/person, two text fields")
    func folksXML() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["schema", "infer", "folks.xml"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let schema = try decodeSchema(result.stdout)
        #expect(schema.entities.count == 1)
        let people = try #require(schema.entities.first)
        #expect(people.name == "people")
        #expect(people.records == "people/person")
        #expect(people.table == "people")
        #expect(
            people.fields == [
                .init(name: "firstName", source: "firstName", type: "text"),
                .init(name: "lastName", source: "lastName", type: "text")
            ])
        #expect(try box.listing() == ["folks.xml"], "nothing written but standard output")
    }

    @Test("Samples/folks.xml from the package root reaches the subcommand, not a file named schema")
    func reachesTheSubcommand() throws {
        let box = try Sandbox()
        let result = try box.run([
            "schema", "infer", Locations.packageRoot.appendingPathComponent("Samples/folks.xml").path
        ])
        #expect(result.status == 0, "\(result)")
        #expect(try decodeSchema(result.stdout).entities.map(\.name) == ["people"])
    }

    @Test("The root command still imports: ingest folks.xml writes folks.db")
    func rootStillImports() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let result = try box.run(["folks.xml", "--quiet"])
        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people") == folks)
    }

    @Test("A missing input exits 66 and names it")
    func missingInput() throws {
        let box = try Sandbox()
        let result = try box.run(["schema", "infer", "nothere.xml"])
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("nothere.xml"), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test("Malformed input within the sample exits 65; usage errors exit 64")
    func otherFailures() throws {
        let box = try Sandbox()
        try box.write("bad.xml", malformedXML)
        try box.copyFolks()
        #expect(try box.run(["schema", "infer", "bad.xml"]).status == 65)
        #expect(try box.run(["schema", "infer", "folks.xml", "--records", "people"]).status == 64)
        #expect(try box.run(["schema", "infer", "folks.xml", "--sample=-1"]).status == 64)
        #expect(try box.run(["schema", "infer", "folks.xml", "--nl", "--from", "xml"]).status == 64)
        #expect(
            try box.run(["schema", "infer", "folks.xml", "--records", "staff/person"]).status == 65,
            "a record path that matches nothing")
    }

    @Test("--out writes the file atomically, refuses an existing one without --replace")
    func outFile() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["schema", "infer", "folks.xml", "--out", "folks.schema.json"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty)
        let written = try box.contents("folks.schema.json")
        #expect(try decodeSchema(written).entities.map(\.records) == ["people/person"])
        #expect(try box.temporaryLeftovers().isEmpty)

        try box.write("folks.schema.json", "edited by hand")
        let refused = try box.run(["schema", "infer", "folks.xml", "--out", "folks.schema.json"])
        #expect(refused.status == 73, "\(refused)")
        #expect(try box.contents("folks.schema.json") == Data("edited by hand".utf8))

        let replaced = try box.run(["schema", "infer", "folks.xml", "--out", "folks.schema.json", "--replace"])
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try box.contents("folks.schema.json") == written)
    }

    @Test("JSON on standard input, --sample, and several inputs merged into one schema")
    func jsonAndSampling() throws {
        let box = try Sandbox()
        let json = #"{"people": [{"id": 1, "ok": true}, {"id": "x", "ok": false, "extra": null}]}"#

        let first = try box.run(["schema", "infer", "-", "--sample", "1"], stdin: Data(json.utf8))
        #expect(first.status == 0, "\(first)")
        let sampled = try decodeSchema(first.stdout)
        #expect(sampled.entities.map(\.records) == ["people/item"])
        #expect(sampled.entities.first?.fields.map { "\($0.name) \($0.type ?? "")" } == ["id integer", "ok bool"])

        try box.write("a.json", json)
        try box.write("b.ndjson", "{\"n\": 1.5}\n")
        let all = try box.run(["schema", "infer", "a.json", "b.ndjson", "--sample", "0"])
        #expect(all.status == 0, "\(all)")
        let merged = try decodeSchema(all.stdout)
        #expect(merged.entities.map { "\($0.name) \($0.records)" } == ["people people/item", "b item"])
        #expect(
            merged.entities.first?.fields.map { "\($0.name) \($0.type ?? "")" } == ["id text", "ok bool", "extra text"])
        #expect(merged.entities.flatMap(\.fields).allSatisfy { $0.required == nil })
    }

    @Test("What the schema cannot say is a warning on standard error; the schema is printed all the same")
    func warnings() throws {
        let box = try Sandbox()
        try box.write("odd.json", #"[{"a/b": 1}]"#)
        let result = try box.run(["schema", "infer", "odd.json"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("warning: odd.a/b"), "\(result)")
        #expect(try decodeSchema(result.stdout).entities.first?.fields.map(\.name) == ["a/b"])
    }

    @Test("--help of the subcommand shows examples; the root's help lists it")
    func help() throws {
        let box = try Sandbox()
        let infer = try box.run(["schema", "infer", "--help"])
        #expect(infer.status == 0, "\(infer)")
        let text = String(decoding: infer.stdout, as: UTF8.self)
        #expect(text.contains("EXAMPLES"))
        #expect(text.contains("ingest schema infer folks.xml"))
        #expect(text.contains("--sample"))
        let root = String(decoding: try box.run(["--help"]).stdout, as: UTF8.self)
        #expect(root.contains("schema infer"))
        #expect(try box.run(["help", "schema", "infer"]).status == 0)
    }
}
