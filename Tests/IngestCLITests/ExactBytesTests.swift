import Foundation
import Testing

/// Values and names keep their bytes: Swift's `String ==` treats canonically
/// equivalent spellings as equal, the outputs must not (issue 15, item 17). And the
/// limits of one record and re-runs that rename a table (items 11 and 7's `--append`).
@Suite("Exact bytes, wide records, appending renamed tables")
struct ExactBytesTests {
    /// "Ác" decomposed (A, combining acute, c) and precomposed (Á, c).
    static let decomposed = "A\u{301}c"
    static let precomposed = "\u{C1}c"

    @Test(
        "Canonically equivalent values keep their own bytes in every file output",
        arguments: ["plist", "plist-binary", "archive", "archive-xml", "json"])
    func equivalentValues(output: String) throws {
        let box = try Sandbox()
        try box.write("r.xml", "<r><a><v>\(Self.decomposed)</v></a><a><v>\(Self.precomposed)</v></a></r>")
        var arguments = ["r.xml", "--out", "out"]
        switch output {
        case "plist-binary": arguments += ["--to", "plist", "--plist-format", "binary"]
        case "archive-xml": arguments += ["--to", "archive", "--plist-format", "xml"]
        default: arguments += ["--to", output]
        }

        let result = try box.run(arguments)

        #expect(result.status == 0, "\(result)")
        let data = try box.contents("out")
        let values: [String]
        if output.hasPrefix("archive") {
            let archive = try #require(
                try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            values = (archive["$objects"] as? [Any] ?? []).compactMap { $0 as? String }.filter { $0 != "$null" }
        } else {
            let object =
                output == "json"
                ? try JSONSerialization.jsonObject(with: data)
                : try PropertyListSerialization.propertyList(from: data, format: nil)
            let records = try #require(object as? [[String: Any]])
            values = records.compactMap { $0["v"] as? String }
        }
        #expect(
            values.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                == [Array(Self.decomposed.utf8), Array(Self.precomposed.utf8)].sorted {
                    $0.lexicographicallyPrecedes($1)
                })
    }

    @Test("Record names that are canonically equivalent are two tables", arguments: ["db", "json", "plist"])
    func equivalentTableNames(output: String) throws {
        let box = try Sandbox()
        try box.write(
            "r.xml",
            "<r><\(Self.decomposed)><v>1</v></\(Self.decomposed)><\(Self.precomposed)><v>2</v></\(Self.precomposed)></r>"
        )

        let result = try box.run(["r.xml", "--to", output, "--out", "out.\(output)"])

        #expect(result.status == 0, "\(result)")
        if output == "db" {
            let names = try box.tables("out.db")
            #expect(Set(names.map { Array($0.utf8) }) == [Array(Self.decomposed.utf8), Array(Self.precomposed.utf8)])
            #expect(try box.rows("out.db", "SELECT v FROM \"\(Self.precomposed)\"") == [["2"]])
        } else {
            // Read as bytes: Foundation's dictionaries would merge the two keys again.
            let data = try box.contents("out.\(output)")
            for name in [Self.decomposed, Self.precomposed] {
                let key = output == "json" ? "\"\(name)\":" : "<key>\(name)</key>"
                #expect(
                    data.range(of: Data(key.utf8)) != nil,
                    "no table \(Array(name.utf8)) in \(String(decoding: data, as: UTF8.self))")
            }
        }
    }

    @Test("A record with more fields than SQLite has columns is a data error, not I/O")
    func tooManyColumns() throws {
        let box = try Sandbox()
        let fields = (0..<2_001).map { "<f\($0)>\($0)</f\($0)>" }.joined()
        try box.write("wide.xml", "<r><a>\(fields)</a></r>")
        try box.write("out.db", "the previous output")

        let result = try box.run(["wide.xml", "--out", "out.db", "--replace"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("wide.xml:1:"))
        #expect(result.stderr.contains("2000 columns"))
        #expect(try box.contents("out.db") == Data("the previous output".utf8))
    }

    @Test("Field lookup stays linear: 100 000 fields in one record")
    func manyFields() throws {
        let box = try Sandbox()
        let fields = (0..<100_000).map { "<f\($0)>\($0)</f\($0)>" }.joined()
        try box.write("wide.xml", "<r><a>\(fields)</a></r>")

        let started = Date()
        let result = try box.run(["wide.xml", "--to", "ndjson", "--out", "out.ndjson"])

        #expect(result.status == 0, "\(result)")
        let record = try #require(try JSONSerialization.jsonObject(with: box.contents("out.ndjson")) as? [String: Any])
        #expect(record.count == 100_000)
        #expect(record["f99999"] as? Int == 99_999)
        // Quadratic lookup took about a minute for 400 000 fields; linear is well under a second.
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test(
        "--append twice: a collection whose table was renamed (a second kind of record) joins the earlier run's tables")
    func appendAfterRename() throws {
        let box = try Sandbox()
        try box.write("r.xml", "<r><a><v>1</v></a><b><w>2</w></b><a><v>3</v></a></r>")

        for run in 1...2 {
            let result = try box.run(["r.xml", "--out", "out.db", "--append"])
            #expect(result.status == 0, "run \(run): \(result)")
        }

        #expect(try box.tables("out.db") == ["a", "b"])
        #expect(try box.rows("out.db", "SELECT v FROM a ORDER BY rowid") == [["1"], ["3"], ["1"], ["3"]])
        #expect(try box.rows("out.db", "SELECT w FROM b ORDER BY rowid") == [["2"], ["2"]])
    }

    @Test("--append of a renamed table into one that lacks a column: 65 without --alter, the column added with it")
    func appendAfterRenameNewColumn() throws {
        let box = try Sandbox()
        try box.write("one.xml", "<r><a><v>1</v></a><b><w>2</w></b></r>")
        try box.write("two.xml", "<r><a><v>3</v><x>4</x></a><b><w>5</w></b></r>")
        #expect(try box.run(["one.xml", "--out", "out.db"]).status == 0)

        let refused = try box.run(["two.xml", "--out", "out.db", "--append"])
        #expect(refused.status == 65, "\(refused)")
        #expect(try box.rows("out.db", "SELECT count(*) FROM a") == [["1"]])

        let altered = try box.run(["two.xml", "--out", "out.db", "--append", "--alter"])
        #expect(altered.status == 0, "\(altered)")
        #expect(try box.rows("out.db", "SELECT v, x FROM a ORDER BY rowid") == [["1", nil], ["3", "4"]])
    }
}

/// A repeated JSON value keeps its type: the first of `[[1,2]]`'s items used to
/// become the string "1" (issue 15, item 18).
@Suite("Repeated JSON values keep their types")
struct RepeatedJSONValueTests {
    @Test(
        "Items of a nested array keep their JSON types, the first as the rest",
        arguments: [
            ("[[1,2]]", #"{"item":[1,2]}"#),
            (#"[[true,"x",null,1.5]]"#, #"{"item":[true,"x",null,1.5]}"#),
            (#"[{"a":[{"b":1},{"b":"1"}]}]"#, #"{"a":[{"b":1},{"b":"1"}]}"#)
        ])
    func keepsTypes(input: String, expected: String) throws {
        let box = try Sandbox()

        let result = try box.run(["-", "--from", "json", "--to", "ndjson", "--out", "-"], stdin: Data(input.utf8))

        #expect(result.status == 0, "\(result)")
        #expect(String(decoding: result.stdout, as: UTF8.self) == expected + "\n")
    }
}
