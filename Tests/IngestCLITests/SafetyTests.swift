import Foundation
import Testing

/// The parser options every hostile-input test runs with: the default (Expat) and libxml2.
let parserChoices: [[String]] = [[], ["--parser", "libxml2"]]

@Suite("Hostile inputs")
struct SafetyTests {
    @Test("An external entity never brings a local file into the output", arguments: parserChoices)
    func externalEntity(parser: [String]) throws {
        let box = try Sandbox()
        try box.write(
            "xxe.xml",
            """
            <!DOCTYPE people [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><people><person><firstName>&xxe;</firstName><lastName>x</lastName></person></people>
            """)
        let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? ""
        let secret = passwd.contains("root:") ? "root:" : String(passwd.prefix(while: { $0 != "\n" }))

        let result = try box.run(["xxe.xml", "--out", "out.db"] + parser)

        #expect(result.status == 0 || result.status == 65, "\(result)")
        if result.status == 65 {
            #expect(!box.exists("out.db"), "a failed run writes no database")
            #expect(result.stderr.contains("xxe.xml:"), "a refusal is a diagnostic about the input: \(result)")
        } else {
            #expect(box.exists("out.db"), "a successful run writes its database")
        }
        if box.exists("out.db") {
            #expect(!(try box.contents("out.db")).contains(secret), "the database holds /etc/passwd")
            let values = try box.rows("out.db", "SELECT * FROM people").flatMap { $0 }.compactMap { $0 }
            #expect(!values.contains { $0.contains(secret) }, "\(values)")
        }
        #expect(!result.stderr.contains(secret), "diagnostics leak /etc/passwd: \(result)")
        #expect(!result.stdout.contains(secret))
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("The same entity through --out - leaks nothing to standard output", arguments: parserChoices)
    func externalEntityToStdout(parser: [String]) throws {
        let box = try Sandbox()
        try box.write(
            "xxe.xml",
            """
            <!DOCTYPE people [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><people><person><firstName>&xxe;</firstName><lastName>x</lastName></person></people>
            """)

        let result = try box.run(["xxe.xml", "--out", "-"] + parser)

        #expect(result.status == 0 || result.status == 65, "\(result)")
        if result.status == 0 {
            #expect(result.stdout.starts(with: Data("SQLite format 3\0".utf8)))
        } else {
            #expect(result.stdout.isEmpty, "a failed run writes nothing to standard output")
        }
        #expect(!result.stdout.contains("root:"))
        #expect(!result.stderr.contains("root:"))
    }

    @Test("An external entity is refused with exit 65 and a diagnostic naming it", arguments: parserChoices)
    func externalEntityRefused(parser: [String]) throws {
        let box = try Sandbox()
        try box.write("xxe.xml", #"<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/hostname">]><r><p><v>&x;</v></p></r>"#)

        let result = try box.run(["xxe.xml", "--to", "ndjson", "--out", "-"] + parser)

        #expect(result.status == 65, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines.contains {
                $0.hasPrefix("ingest: xxe.xml:1:") && $0.contains(#"external entity "file:///etc/hostname" refused"#)
            },
            "\(result)")
    }

    @Test("Billion laughs stops with exit 65, quickly, in content and in an attribute value", arguments: parserChoices)
    func billionLaughs(parser: [String]) throws {
        let box = try Sandbox()
        var xml = #"<!DOCTYPE r [<!ENTITY e0 "lol lol lol lol lol lol lol lol lol lol">"#
        for level in 1...9 {
            xml += "<!ENTITY e\(level) \"" + String(repeating: "&e\(level - 1);", count: 10) + "\">"
        }
        try box.write("lol.xml", xml + "]><r><p><v>&e9;</v></p></r>")
        try box.write("lol-attribute.xml", xml + #"]><r><p v="&e9;"/></r>"#)

        for input in ["lol.xml", "lol-attribute.xml"] {
            let started = Date()
            let result = try box.run([input, "--dry-run"] + parser)
            #expect(result.status == 65, "\(input): \(result)")
            #expect(result.stderr.contains("ingest: \(input):"), "\(result)")
            #expect(Date().timeIntervalSince(started) < 30)
        }
    }
}

@Suite("Names that look like SQL")
struct ColumnNameTests {
    @Test("Columns named order, select, a.b and x-y work and hold their values")
    func keywordAndPunctuatedColumns() throws {
        let box = try Sandbox()
        try box.write("rows.xml", #"<rows><row order="1" select="2"><a.b>3</a.b><x-y>4</x-y></row></rows>"#)

        let result = try box.run(["rows.xml", "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(Set(try box.columns("rows.db", table: "rows")) == ["order", "select", "a.b", "x-y"])
        #expect(
            try box.rows("rows.db", #"SELECT "order", "select", "a.b", "x-y" FROM "rows""#)
                == [["1", "2", "3", "4"]])
    }

    @Test("A table named after a keyword (group) works")
    func keywordTable() throws {
        let box = try Sandbox()
        try box.write(
            "group.xml",
            #"<group><table where="w"><from>f</from></table><table where="v"><from>g</from></table></group>"#)

        let result = try box.run(["group.xml", "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.tables("group.db") == ["group"])
        #expect(
            try box.rows("group.db", #"SELECT "where", "from" FROM "group" ORDER BY rowid"#)
                == [["w", "f"], ["v", "g"]])
    }
}
