import Foundation
import Testing

/// Tables never collide, and records without fields are rows too (issue 15, items 4
/// and 5).
@Suite("Table names and empty records")
struct TableNamingTests {
    @Test(
        "An empty first record: the table is made with the first record that has a field",
        arguments: [("r.xml", "<r><a/><a><v>1</v></a><a/></r>"), ("r.json", #"[{}, {"v": 1}, {}]"#)])
    func emptyFirstRecord(name: String, content: String) throws {
        let box = try Sandbox()
        try box.write(name, content)

        let result = try box.run([name, "--out", "out.db"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("out.db", "SELECT v FROM r ORDER BY rowid") == [[nil], ["1"], [nil]])
    }

    @Test(
        "Records named sqlite_… go to _sqlite_… (SQLite keeps the prefix); a NUL in a key is U+FFFD; --append finds them again"
    )
    func namesSQLiteRefuses() throws {
        let box = try Sandbox()
        try box.write("s.json", #"{"sqlite_authors": [{"a": 1}, {"a\u0000b": 2}]}"#)

        for run in 1...2 {
            let result = try box.run(["s.json", "--out", "out.db"] + (run == 2 ? ["--append"] : []))
            #expect(result.status == 0, "\(result)")
        }
        #expect(try box.tables("out.db") == ["_sqlite_authors"])
        #expect(try box.columns("out.db", table: "_sqlite_authors") == ["a", "a\u{FFFD}b"])
        #expect(try box.rows("out.db", "SELECT count(*) FROM _sqlite_authors") == [["4"]])
    }

    @Test("Records that all have no field keep their rows, in a table with one column, _")
    func onlyEmptyRecords() throws {
        let box = try Sandbox()
        try box.write("r.xml", "<r><a/><a/></r>")

        let result = try box.run(["r.xml", "--out", "out.db"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.columns("out.db", table: "r") == ["_"])
        #expect(try box.rows("out.db", "SELECT count(*) FROM r") == [["2"]])
    }

    @Test(
        "Record names that differ only in case get tables that SQLite tells apart", arguments: ["db", "json", "plist"])
    func caseOnly(output: String) throws {
        let box = try Sandbox()
        try box.write("r.xml", "<r><a><v>1</v></a><A><v>2</v></A><a><v>3</v></a></r>")

        let result = try box.run(["r.xml", "--to", output, "--out", "out.\(output)"])

        #expect(result.status == 0, "\(result)")
        if output == "db" {
            #expect(try box.tables("out.db") == ["A_2", "a"])
            #expect(try box.rows("out.db", "SELECT v FROM a ORDER BY rowid") == [["1"], ["3"]])
            #expect(try box.rows("out.db", "SELECT v FROM A_2") == [["2"]])
        } else {
            let data = try box.contents("out.\(output)")
            let tables = try #require(
                (output == "json"
                    ? try JSONSerialization.jsonObject(with: data)
                    : try PropertyListSerialization.propertyList(from: data, format: nil))
                    as? [String: [[String: Any]]])
            #expect(Set(tables.keys) == ["a", "A_2"])
            #expect(tables["a"]?.count == 2)
        }
    }

    @Test(
        "The same collection under several parents (r/p/*) feeds one set of tables", arguments: ["db", "json", "plist"])
    func severalParents(output: String) throws {
        let box = try Sandbox()
        try box.write("r.xml", "<r><p><a><v>1</v></a></p><p><a><v>2</v></a><b><w>3</w></b></p></r>")

        let result = try box.run(["r.xml", "--records", "r/p/*", "--to", output, "--out", "out.\(output)"])

        #expect(result.status == 0, "\(result)")
        if output == "db" {
            #expect(try box.tables("out.db") == ["a", "b"])
            #expect(try box.rows("out.db", "SELECT v FROM a ORDER BY rowid") == [["1"], ["2"]])
            #expect(try box.rows("out.db", "SELECT w FROM b") == [["3"]])
        } else {
            let data = try box.contents("out.\(output)")
            let text = String(decoding: data, as: UTF8.self)
            #expect(
                text.components(separatedBy: output == "json" ? "\"a\":" : "<key>a</key>").count == 2,
                "no key twice: \(text)")
            let tables = try #require(
                (output == "json"
                    ? try JSONSerialization.jsonObject(with: data)
                    : try PropertyListSerialization.propertyList(from: data, format: nil))
                    as? [String: [[String: Any]]])
            #expect(tables["a"]?.count == 2)
            #expect(tables["b"]?.count == 1)
        }
    }
}
