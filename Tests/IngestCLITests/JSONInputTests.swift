import Foundation
import Testing

/// JSONTestSuite's parsing cases, from ../shared beside the clone.
enum JSONTestSuite {
    static let directory = Locations.packageRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/testdata/JSONTestSuite/test_parsing")

    static var isPresent: Bool { FileManager.default.fileExists(atPath: directory.path) }

    /// Why the tests that need it are skipped in a clone without ../shared beside it.
    static let absentMessage: Comment =
        "JSONTestSuite is not at ../shared/testdata/JSONTestSuite beside the clone: skipped (.ci/run, where ../shared is, runs it)"

    static func files(prefix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
            .sorted()
            .map { directory.appendingPathComponent($0) }
    }
}

@Suite("JSON input on the command line")
struct JSONInputTests {
    @Test("folks.json and folks.xml give identical people tables")
    func folksParity() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write(
            "folks.json", try Data(contentsOf: Locations.packageRoot.appendingPathComponent("Samples/folks.json")))

        let xml = try box.run(["folks.xml", "--out", "xml.db"])
        let json = try box.run(["folks.json", "--out", "json.db"])
        #expect(xml.status == 0, "\(xml)")
        #expect(json.status == 0, "\(json)")

        #expect(try box.tables("json.db") == ["people"])
        #expect(try box.rows("json.db", "SELECT * FROM people") == folks)
        #expect(try box.rows("json.db", "SELECT * FROM people") == (try box.rows("xml.db", "SELECT * FROM people")))
        let schema = "SELECT sql FROM sqlite_master WHERE name = 'people'"
        #expect(try box.rows("json.db", schema) == (try box.rows("xml.db", schema)))
    }

    @Test("The default output is named after the input: folks.json → folks.db")
    func defaultName() throws {
        let box = try Sandbox()
        try box.write(
            "folks.json", try Data(contentsOf: Locations.packageRoot.appendingPathComponent("Samples/folks.json")))
        let result = try box.run(["-v", "folks.json"])
        #expect(result.status == 0, "\(result)")
        #expect(box.exists("folks.db"))
        #expect(result.stderr.contains("3 records in 1 table (people)"), "\(result)")
    }

    @Test("A key written as SQL is a column, and the table survives")
    func injectionKey() throws {
        let box = try Sandbox()
        let key = #"x"); DROP TABLE people; --"#
        let escaped = key.replacingOccurrences(of: "\"", with: "\\\"")
        try box.write("people.json", #"{"people":[{"name":"a","\#(escaped)":1,"":"empty","NAME":"upper"}]}"#)

        let result = try box.run(["people.json"])
        #expect(result.status == 0, "\(result)")
        #expect(try box.tables("people.db") == ["people"])
        #expect(try box.columns("people.db", table: "people") == ["name", key, "", "NAME_2"])
        #expect(try box.rows("people.db", "SELECT * FROM people") == [["a", "1", "empty", "upper"]])
    }

    @Test("JSON types become SQLite types; every number is INTEGER or REAL, big and inexact ones REAL")
    func sqliteTypes() throws {
        let box = try Sandbox()
        try box.write(
            "t.ndjson",
            """
            {"i": 1, "r": 2.5, "b": true, "n": null, "big": 18446744073709551616, "e": 1e5, "s": "7", "tags": ["a"]}
            {"i": 2, "r": 3, "b": false, "n": null, "big": 1, "e": 2, "s": "x", "tags": []}

            """)
        let result = try box.run(["t.ndjson"])
        #expect(result.status == 0, "\(result)")
        let rows = try box.rows(
            "t.db", "SELECT i, typeof(i), r, typeof(r), b, typeof(b), n, big, typeof(big), e, s, typeof(s), tags FROM t"
        )
        #expect(
            rows == [
                [
                    "1", "integer", "2.5", "real", "1", "integer", nil, "1.8446744073709552e+19", "real", "100000.0",
                    "7", "text", #"["a"]"#
                ],
                ["2", "integer", "3.0", "real", "0", "integer", nil, "1.0", "real", "2.0", "x", "text", "[]"]
            ])
    }

    @Test("JSON types reach a property list: true is <true/>, null is left out of the dictionary")
    func jsonToPlist() throws {
        let box = try Sandbox()
        try box.write("t.ndjson", #"{"a":true,"b":null,"c":1.5,"d":[1,"x"],"s":"7"}"# + "\n")
        let result = try box.run(["t.ndjson", "--to", "plist"])
        #expect(result.status == 0, "\(result)")
        let plist = try PropertyListSerialization.propertyList(from: try box.contents("t.plist"), format: nil)
        let records = try #require(plist as? [[String: Any]])
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(Set(record.keys) == ["a", "c", "d", "s"], "null is absent: \(record)")
        #expect(record["a"] as? Bool == true)
        #expect(record["c"] as? Double == 1.5)
        #expect(record["s"] as? String == "7")
        #expect((record["d"] as? [Any])?.count == 2)
        let xml = String(decoding: try box.contents("t.plist"), as: UTF8.self)
        #expect(xml.contains("<true/>"), "\(xml)")
    }

    @Test("JSON Lines from standard input: --nl, table named after the output")
    func standardInput() throws {
        let box = try Sandbox()
        let lines = (1...1000).map { #"{"id":\#($0),"name":"n\#($0)"}"# }.joined(separator: "\n")
        let result = try box.run(["-", "--nl", "--out", "events.db"], stdin: Data(lines.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(
            try box.rows("events.db", "SELECT count(*), sum(id), max(name) FROM events") == [["1000", "500500", "n999"]]
        )
    }

    @Test("Standard input is recognised as JSON by its first byte")
    func sniffing() throws {
        let box = try Sandbox()
        let result = try box.run(["-", "--out", "x.db"], stdin: Data(#"  [{"a":1},{"a":2}]"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("x.db", "SELECT a FROM x") == [["1"], ["2"]])
    }

    @Test("Malformed JSON: exit 65, file:line:column, the old output untouched")
    func malformed() throws {
        let box = try Sandbox()
        try box.write("people.json", #"{"people":[{"a":1}]}"#)
        #expect(try box.run(["people.json"]).status == 0)
        let before = try box.contents("people.db")

        try box.write("people.json", "{\"people\":[\n  {\"a\":1},\n  {\"a\":2,}\n]}")
        let result = try box.run(["people.json", "--replace"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("people.json:3:10:"), "\(result)")
        #expect(try box.contents("people.db") == before)
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("--records picks records inside a JSON document")
    func recordPath() throws {
        let box = try Sandbox()
        try box.write("export.json", #"{"data":{"results":[{"id":1},{"id":2}]},"people":[{"x":1}]}"#)
        let result = try box.run(["export.json", "--records", "data/results/item"])
        #expect(result.status == 0, "\(result)")
        #expect(try box.tables("export.db") == ["results"])
        #expect(try box.rows("export.db", "SELECT id FROM results") == [["1"], ["2"]])
        let missing = try box.run(["export.json", "--records", "nope/item", "--dry-run"])
        #expect(missing.status == 65, "\(missing)")
        #expect(missing.stderr.contains("nope/item"), "\(missing)")
        #expect(!missing.stderr.contains("*/"), "the message shows the path as the user wrote it: \(missing)")
    }

    @Test("--parse-only checks well-formedness without mapping or writing")
    func parseOnly() throws {
        let box = try Sandbox()
        try box.write("ok.json", #"{"a":[1,2,3]}"#)
        try box.write("bad.json", #"{"a":[1,2,3}"#)
        let ok = try box.run(["-v", "ok.json", "--parse-only"])
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stderr.contains("well-formed"), "\(ok)")
        let bad = try box.run(["bad.json", "--parse-only"])
        #expect(bad.status == 65, "\(bad)")
        #expect(bad.stderr.contains("bad.json:1:12:"), "\(bad)")
        #expect(try box.listing() == ["bad.json", "ok.json"])
    }

    @Test(
        "JSONTestSuite: every y_ file accepted, every n_ file rejected with exit 65 by --dry-run",
        .enabled(if: JSONTestSuite.isPresent, JSONTestSuite.absentMessage))
    func conformance() throws {
        let box = try Sandbox()
        var accepted = 0, rejected = 0
        for file in try JSONTestSuite.files(prefix: "y_") {
            let result = try box.run([file.path, "--from", "json", "--dry-run", "--quiet"])
            #expect(result.status == 0, "\(file.lastPathComponent) must be accepted: \(result)")
            if result.status == 0 { accepted += 1 }
        }
        for file in try JSONTestSuite.files(prefix: "n_") {
            let result = try box.run([file.path, "--from", "json", "--dry-run", "--quiet"])
            #expect(
                result.status == 65 && !result.crashed, "\(file.lastPathComponent) must be rejected with 65: \(result)")
            if result.status == 65 { rejected += 1 }
        }
        #expect(accepted == (try JSONTestSuite.files(prefix: "y_")).count)
        #expect(rejected == (try JSONTestSuite.files(prefix: "n_")).count)
        #expect(accepted > 90 && rejected > 180, "the suite looks incomplete: \(accepted) y_, \(rejected) n_")
        print("JSONTestSuite: \(accepted) y_ accepted, \(rejected) n_ rejected")
    }

    @Test(
        "JSONTestSuite i_ files behave as Documentation/Mappings.md says",
        .enabled(if: JSONTestSuite.isPresent, JSONTestSuite.absentMessage))
    func implementationDefined() throws {
        let box = try Sandbox()
        for file in try JSONTestSuite.files(prefix: "i_") {
            let name = file.lastPathComponent
            let result = try box.run([file.path, "--from", "json", "--dry-run", "--quiet"])
            // Documented: huge numbers, deep (500) nesting and a UTF-8 BOM are accepted;
            // lone surrogates, invalid UTF-8 and UTF-16 are refused.
            let accepted =
                name.hasPrefix("i_number_") || name == "i_structure_500_nested_arrays.json"
                || name == "i_structure_UTF-8_BOM_empty_object.json"
            #expect(result.status == (accepted ? 0 : 65), "\(name): \(result)")
        }
    }
}
