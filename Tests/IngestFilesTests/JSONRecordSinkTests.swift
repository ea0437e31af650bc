import Foundation
import Testing
@testable import IngestFiles
@testable import IngestCore
import IngestTesting
import IngestTestSupport

@Suite struct JSONRecordSinkTests {
    let factory = RecordFactory()

    func write(_ records: [IngestRecord], _ format: JSONRecordSink.Format, renames: [Int: (String, String)] = [:])
        throws -> Data
    {
        let directory = try TemporaryDirectory()
        return try writeFile(records, in: directory, renames: renames, format: format == .array ? .json : .jsonLines)
    }

    var mixed: IngestRecord {
        factory.record(
            "t",
            [
                ("n", factory.inferred("42")), ("r", factory.inferred("2.5")), ("b", .bool(false)),
                ("s", .text("a \"quoted\"\n line")), ("z", .null), ("huge", factory.inferred("18446744073709551616")),
                ("tags", .json(#"["x","y"]"#, .array)), ("o", .json(#"{"k":"v"}"#, .object))
            ])
    }

    @Test func arrayKeepsTypesAndEmbedsNestedJSON() throws {
        let data = try write([mixed, mixed], .array)
        let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(rows.count == 2)
        let row = rows[0]
        #expect((row["n"] as? NSNumber)?.int64Value == 42)
        #expect((row["r"] as? NSNumber)?.doubleValue == 2.5)
        #expect((row["b"] as? NSNumber)?.boolValue == false)
        #expect(row["s"] as? String == "a \"quoted\"\n line")
        #expect(row["z"] is NSNull)
        #expect(row["huge"] as? String == "18446744073709551616")
        #expect(row["tags"] as? [String] == ["x", "y"], "nested data is JSON, not a string")
        #expect(row["o"] as? [String: String] == ["k": "v"])
    }

    @Test func linesHaveOneObjectEach() throws {
        let data = try write([mixed, factory.record("u", [("a", .text("b"))])], .lines)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        let second = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: String]
        #expect(second == ["a": "b"])
        #expect((try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])?.count == 8)
    }

    @Test func severalTablesMakeAnObjectOfArrays() throws {
        let records = [
            factory.record("catalog", [("t", .text("A"))]), factory.record("magazine", [("t", .text("M"))]),
            factory.record("book", [("t", .text("B"))])
        ]
        let data = try write(records, .array, renames: [0: ("catalog", "book")])
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [[String: String]]])
        #expect(root == ["book": [["t": "A"], ["t": "B"]], "magazine": [["t": "M"]]])
    }

    @Test(arguments: [JSONRecordSink.Format.array, .lines])
    func dataIsABase64String(format: JSONRecordSink.Format) throws {
        let record = factory.record(
            "t", [("d", .data([0, 1, 2, 0xFF])), ("e", .data([])), ("f", .data(Array("foobar".utf8)))])
        let data = try write([record], format)
        #expect(String(decoding: data, as: UTF8.self).contains(#"{"d":"AAEC/w==","e":"","f":"Zm9vYmFy"}"#))
        let object = try JSONSerialization.jsonObject(with: data)
        let row = try #require(
            (format == .array ? (object as? [[String: String]])?.first : object as? [String: String]))
        #expect(row == ["d": "AAEC/w==", "e": "", "f": "Zm9vYmFy"])
        #expect(Data(base64Encoded: row["d"]!) == Data([0, 1, 2, 0xFF]))
    }

    @Test func zeroRecords() throws {
        #expect(try JSONSerialization.jsonObject(with: write([], .array)) as? [Any] != nil)
        #expect(try write([], .lines).isEmpty)
    }
}
