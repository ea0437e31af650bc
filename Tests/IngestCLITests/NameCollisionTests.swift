import Foundation
import Testing

/// A name an output had to change never lands on another name: every value comes
/// back under exactly one column or key, in every run the same (issue 27, item 1).
@Suite("Renamed names never collide")
struct NameCollisionTests {
    /// Every value in the database, as `table.column=value`, sorted.
    func storedValues(_ box: Sandbox, _ database: String) throws -> [String] {
        var stored: [String] = []
        for table in try box.tables(database) {
            let columns = try box.columns(database, table: table)
            for row in try box.rows(database, "SELECT * FROM \"\(table)\"") {
                for (column, value) in zip(columns, row) where value != nil {
                    stored.append("\(table).\(column)=\(value!)")
                }
            }
        }
        return stored.sorted()
    }

    @Test(
        "A field named as another was renamed (id → id_2) gets a column of its own, also on --append",
        arguments: [
            ("n.xml", #"<r><a ID="1" id="2" id_2="3"/></r>"#, "r"), ("n.json", #"[{"ID":1,"id":2,"id_2":3}]"#, "n")
        ])
    func caseRenameMeetsTheRealName(name: String, content: String, table: String) throws {
        let box = try Sandbox()
        try box.write(name, content)

        for run in 1...2 {
            let result = try box.run([name, "--out", "n.db"] + (run == 2 ? ["--append"] : []))
            #expect(result.status == 0, "\(result)")
        }

        #expect(try box.columns("n.db", table: table) == ["ID", "id_2", "id_2_2"])
        #expect(
            try storedValues(box, "n.db") == [
                "\(table).ID=1", "\(table).ID=1", "\(table).id_2=2", "\(table).id_2=2",
                "\(table).id_2_2=3", "\(table).id_2_2=3"
            ])
    }

    @Test("A NUL written as U+FFFD does not land on a name that has U+FFFD")
    func nulMeetsReplacementCharacter() throws {
        let box = try Sandbox()
        try box.write("z.json", #"[{"a\u0000":1,"a\ufffd":2}]"#)

        let result = try box.run(["z.json", "--out", "z.db"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.columns("z.db", table: "z") == ["a\u{FFFD}", "a\u{FFFD}_2"])
        #expect(try storedValues(box, "z.db") == ["z.a\u{FFFD}=1", "z.a\u{FFFD}_2=2"])
    }

    @Test(
        "In an XML plist or archive, a NUL written as U+FFFD does not make two equal keys",
        arguments: ["plist", "archive"])
    func nulMeetsReplacementCharacterInXMLPlists(output: String) throws {
        let box = try Sandbox()
        try box.write("z.json", #"[{"a\u0000":1,"a\ufffd":2},{"a\ufffd":3,"a\u0000":4}]"#)

        let result = try box.run(["z.json", "--to", output, "--plist-format", "xml", "--out", "z.out"])

        #expect(result.status == 0, "\(result)")
        let text = String(decoding: try box.contents("z.out"), as: UTF8.self)
        let records: [[String: Any]]
        if output == "plist" {
            records = try #require(try plist(box.contents("z.out")) as? [[String: Any]])
        } else {
            let objects = try #require((try plist(box.contents("z.out")) as? [String: Any])?["$objects"] as? [Any])
            records = objects.compactMap { $0 as? [String: Any] }.filter {
                $0["$class"] != nil && $0["NS.objects"] == nil && $0["$classname"] == nil
            }
        }
        let fields = records.map { $0.filter { $0.key != "$class" }.mapValues { $0 as? Int } }
        #expect(fields == [["a\u{FFFD}": 1, "a\u{FFFD}_2": 2], ["a\u{FFFD}": 4, "a\u{FFFD}_2": 3]], "\(text)")
    }

    @Test(
        "In a nested object too, keys that read back alike, or a repeated JSON member, stay apart",
        arguments: [("plist", "xml"), ("plist", "binary"), ("archive", "xml"), ("archive", "binary")])
    func nestedKeysStayApart(output: String, format: String) throws {
        let box = try Sandbox()
        try box.write("n.json", #"[{"n":{"a\u0000":1,"a\ufffd":2,"b":3,"b":4}}]"#)

        let result = try box.run(["n.json", "--to", output, "--plist-format", format, "--out", "n.out"])

        #expect(result.status == 0, "\(result)")
        let written = try box.contents("n.out")
        let root = try plist(written)
        let xml = format == "xml"
        let expected: [String: Int] =
            xml
            ? ["a\u{FFFD}": 1, "a\u{FFFD}_2": 2, "b": 3, "b_2": 4] : ["a\u{0}": 1, "a\u{FFFD}": 2, "b": 3, "b_2": 4]
        var nested: [String: Int] = [:]
        if output == "plist" {
            let record = try #require((root as? [[String: Any]])?.first)
            nested = try #require(record["n"] as? [String: Any]).compactMapValues { $0 as? Int }
        } else {
            // The NSDictionary's keys are strings among the archive's objects.
            let objects = try #require((root as? [String: Any])?["$objects"] as? [Any])
            let strings = Set(objects.compactMap { $0 as? String })
            #expect(Set(expected.keys).isSubset(of: strings), "\(strings)")
            return
        }
        #expect(nested == expected, "\(String(decoding: written, as: UTF8.self))")
    }

    @Test("Records named sqlite_x (kept in _sqlite_x) and _sqlite_x get two tables, also on --append")
    func reservedPrefixMeetsItsRename() throws {
        let box = try Sandbox()
        try box.write("t.json", #"{"sqlite_x":[{"a":1}],"_sqlite_x":[{"a":2}]}"#)

        for run in 1...2 {
            let result = try box.run(["t.json", "--out", "t.db"] + (run == 2 ? ["--append"] : []))
            #expect(result.status == 0, "\(result)")
        }

        #expect(try box.tables("t.db") == ["_sqlite_x", "_sqlite_x_2"])
        #expect(
            try storedValues(box, "t.db") == ["_sqlite_x.a=1", "_sqlite_x.a=1", "_sqlite_x_2.a=2", "_sqlite_x_2.a=2"])
    }
}
