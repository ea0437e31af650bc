import Foundation
import Testing
@testable import IngestCore
import IngestTesting
import IngestTestSupport

/// Runs `json` through the JSON parser and the automatic mapping.
func mapJSON(
    _ json: String, name: String = "doc", lines: Bool = false, records: String? = nil,
    chunkSize: Int = defaultChunkSize
) throws -> CollectingSink {
    let sink = CollectingSink()
    let path = try records.map { try RecordPath($0).belowDocumentElement }
    let mapping = AutomaticDocumentMapping(recordPath: path, sink: sink, format: lines ? .jsonLines : .json)
    let stack = try HandlerStack(mapping: mapping)
    try JSONParser(documentName: name, lines: lines, chunkSize: chunkSize).parse(bytes: Array(json.utf8), into: stack)
    try mapping.checkMatched()
    return sink
}

@Suite("JSON mapping")
struct JSONMappingTests {
    @Test("folks.json maps to the same records as folks.xml")
    func folksParity() throws {
        let xml = try mapXML(String(contentsOf: folksURL, encoding: .utf8))
        let json = try mapJSON(
            String(contentsOf: packageRoot.appendingPathComponent("Samples/folks.json"), encoding: .utf8),
            name: "folks")
        #expect(json.records == xml.records)
        #expect(json.records.count == 3)
        #expect(json.records.first?.table == "people")
    }

    @Test("JSON types are kept: strings stay text, numbers are numbers with their digits, booleans and null typed")
    func types() throws {
        let sink = try mapJSON(
            #"[{"s":"42","i":42,"r":472.942,"big":123456789012345678901,"e":1e5,"t":true,"f":false,"n":null,"huge":1e400,"p":10.00}]"#
        )
        let row = try #require(sink.records.first)
        #expect(row.table == "doc")
        #expect(row.fields["s"] == .text("42"))
        #expect(row.fields["i"] == .number(.init(text: "42", kind: .integer)))
        #expect(row.fields["r"] == .number(.init(text: "472.942", kind: .real)))
        #expect(
            row.fields["big"] == .number(.init(text: "123456789012345678901", kind: .real)),
            "an integer past 64 bits is a real, its digits kept")
        #expect(
            row.fields["e"] == .number(.init(text: "1e5", kind: .real)),
            "a number REAL would rewrite is a real all the same")
        #expect(row.fields["p"] == .number(.init(text: "10.00", kind: .real)))
        #expect(row.fields["huge"] == .text("1e400"), "past a Double's range: its text")
        #expect(row.fields["t"] == .bool(true))
        #expect(row.fields["f"] == .bool(false))
        #expect(row.fields["n"] == .null)
        #expect(row.order == ["s", "i", "r", "big", "e", "t", "f", "n", "huge", "p"])
    }

    @Test("Nested values are kept as the JSON they were, empty ones included")
    func nested() throws {
        let sink = try mapJSON(
            #"{"people":[{"tags":["a"],"none":[],"obj":{},"deep":{"k":[1,"x",{"y":null}],"b":true}}]}"#)
        let row = try #require(sink.records.first)
        #expect(row.fields["tags"] == .json(#"["a"]"#, .array), "a one-item list stays a list")
        #expect(row.fields["none"] == .json("[]", .array))
        #expect(row.fields["obj"] == .json("{}", .object))
        #expect(row.fields["deep"] == .json(#"{"k":[1,"x",{"y":null}],"b":true}"#, .object))
    }

    @Test("Each array member of the top-level object is a table named after its key")
    func severalCollections() throws {
        let sink = try mapJSON(#"{"meta":{"v":1},"people":[{"n":"a"},{"n":"b"}],"count":2,"places":[{"p":"x"}]}"#)
        #expect(sink.records.map(\.table) == ["people", "people", "places"])
        #expect(sink.records.map { $0.fields.values.first } == [.text("a"), .text("b"), .text("x")])
    }

    @Test("An object without arrays, or a scalar, is one record")
    func wholeDocument() throws {
        let object = try mapJSON(#"{"name":"ingest","version":2,"meta":{"a":1}}"#, name: "config")
        #expect(object.records.count == 1)
        #expect(object.records.first?.table == "config")
        #expect(object.records.first?.order == ["name", "version", "meta"])
        let scalar = try mapJSON(#""hello""#, name: "greeting")
        #expect(scalar.records.count == 1)
        #expect(scalar.records.first?.fields["greeting"] == .text("hello"))
    }

    @Test("Arrays of scalars give one field per record, named after the item")
    func scalarItems() throws {
        let sink = try mapJSON("[1, \"two\", null]", name: "values")
        #expect(
            sink.records.map { $0.fields["item"] } == [.number(.init(text: "1", kind: .integer)), .text("two"), .null])
    }

    @Test("A repeated key becomes a list, as a repeated XML element does")
    func duplicateKeys() throws {
        let sink = try mapJSON(#"[{"a":"b","a":"c"}]"#)
        #expect(sink.records.first?.fields["a"] == .json(#"["b","c"]"#, .array))
    }

    @Test("JSON Lines: every line is a record in a table named after the input")
    func jsonLines() throws {
        let sink = try mapJSON("{\"id\":1,\"tags\":[\"x\"]}\n{\"id\":2,\"tags\":[]}\n", name: "events", lines: true)
        #expect(sink.records.map(\.table) == ["events", "events"])
        #expect(sink.records.map { $0.fields["tags"] } == [.json(#"["x"]"#, .array), .json("[]", .array)])
        #expect(try mapJSON("", name: "empty", lines: true).records.isEmpty)
    }

    @Test("--records selects records below the top-level value, array items being `item`")
    func recordPath() throws {
        let json = #"{"data":{"results":[{"id":1},{"id":2}],"other":[{"x":1}]}}"#
        let sink = try mapJSON(json, records: "data/results/item")
        #expect(sink.records.count == 2)
        #expect(sink.records.allSatisfy { $0.table == "results" })
        #expect(throws: IngestError.self) { try mapJSON(json, records: "nothing/item") }
    }

    @Test("Mapping gives the same records however the input is chunked", arguments: [1, 3, 17])
    func chunking(chunkSize: Int) throws {
        let json =
            #"{"people":[{"firstName":"Matt","tags":["a","b"],"n":1.25},{"firstName":"Dudl\u00e9y","tags":[],"n":null}]}"#
        #expect(try mapJSON(json, chunkSize: chunkSize).records == (try mapJSON(json).records))
    }
}
