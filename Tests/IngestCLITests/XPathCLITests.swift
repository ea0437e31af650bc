import Foundation
import Testing

@Suite("--xpath (tree mode)")
struct XPathCLITests {
    static let atom = """
        <?xml version="1.0"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
          <title>Notes</title>
          <entry><title>One</title><dc:creator>Ann</dc:creator></entry>
          <entry><title>Two</title><dc:creator>Bo</dc:creator></entry>
        </feed>
        """

    @Test("//person[lastName='Doright'] yields exactly one record")
    func doright() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["-v", "folks.xml", "--xpath", "//person[lastName='Doright']", "--to", "db"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.tables("folks.db") == ["people"])
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people") == [["Dudley", "Doright"]])
        #expect((result.summary ?? "").hasPrefix("ingest: 1 record in 1 table (people) to folks.db"), "\(result)")
    }

    @Test("//person gives the same table, columns and rows as --records people/person")
    func sameAsRecords() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let tree = try box.run(["folks.xml", "--xpath", "//person", "--out", "tree.db"])
        let stream = try box.run(["folks.xml", "--records", "people/person", "--out", "stream.db"])

        #expect(tree.status == 0, "\(tree)")
        #expect(stream.status == 0, "\(stream)")
        #expect(try box.tables("tree.db") == box.tables("stream.db"))
        #expect(try box.columns("tree.db", table: "people") == box.columns("stream.db", table: "people"))
        #expect(try box.rows("tree.db", "SELECT * FROM people ORDER BY rowid") == folks)
        #expect(try box.rows("stream.db", "SELECT * FROM people ORDER BY rowid") == folks)
    }

    @Test("--ns binds the prefixes of the expression")
    func namespaces() throws {
        let box = try Sandbox()
        try box.write("notes.atom", Self.atom)

        let result = try box.run([
            "notes.atom", "--xpath", "//a:entry[dc:creator='Bo']",
            "--ns", "a=http://www.w3.org/2005/Atom", "--ns", "dc=http://purl.org/dc/elements/1.1/",
            "--out", "notes.db"
        ])

        #expect(result.status == 0, "\(result)")
        #expect(try box.tables("notes.db") == ["entry"], "the feed also holds a title: named after the records")
        #expect(try box.rows("notes.db", #"SELECT title, "dc:creator" FROM entry"#) == [["Two", "Bo"]])
    }

    @Test("An unbound prefix is a usage error (64) that says which and how to bind it")
    func unboundPrefix() throws {
        let box = try Sandbox()
        try box.write("notes.atom", Self.atom)

        let result = try box.run(["notes.atom", "--xpath", "//a:entry", "--out", "notes.db"])

        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("namespace prefix a"), "\(result)")
        #expect(result.stderr.contains("--ns a=URI"), "\(result)")
        #expect(try box.listing() == ["notes.atom"])
    }

    @Test("An invalid expression is a usage error (64) naming it")
    func invalidExpression() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--xpath", "//person[lastName=", "--out", "out.db"])

        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderr.hasPrefix("ingest: --xpath: \"//person[lastName=\" is not a valid XPath expression"),
            "\(result)")
        #expect(try box.listing() == ["folks.xml"])
    }

    @Test("An expression giving numbers or attributes is a usage error (64) saying what it gave")
    func notElements() throws {
        let box = try Sandbox()
        try box.write("ids.xml", #"<items><item id="1"/><item id="2"/></items>"#)

        let count = try box.run(["ids.xml", "--xpath", "count(//item)", "--out", "out.db"])
        let attributes = try box.run(["ids.xml", "--xpath", "//@id", "--out", "out.db"])

        #expect(count.status == 64, "\(count)")
        #expect(count.stderr.contains("gives a number"), "\(count)")
        #expect(attributes.status == 64, "\(attributes)")
        #expect(attributes.stderr.contains("gives an attribute (id)"), "\(attributes)")
        #expect(attributes.stderr.contains("//*[@id]"), "it suggests selecting the elements: \(attributes)")
        #expect(try box.listing() == ["ids.xml"])
    }

    @Test("An expression that selects nothing exits 65, like an unmatched --records")
    func selectsNothing() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--xpath", "//person[lastName='Nobody']", "--out", "out.db"])

        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr.contains(
                "folks.xml: no element matches the XPath expression //person[lastName='Nobody'] (--xpath)"), "\(result)"
        )
        #expect(try box.listing() == ["folks.xml"])
    }

    @Test("A file over --max-tree-bytes is refused (65) before parsing; the old output stays")
    func fileOverLimit() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let old = Data("the previous database".utf8)
        try box.write("out.db", old)

        let result = try box.run([
            "folks.xml", "--xpath", "//person", "--max-tree-bytes", "100", "--out", "out.db", "--replace"
        ])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("folks.xml: is 364 bytes, more than the tree limit of 100 bytes"), "\(result)")
        #expect(result.stderr.contains("--max-tree-bytes"), "it names the option: \(result)")
        #expect(result.stderr.contains("--records"), "it suggests streaming: \(result)")
        #expect(try box.contents("out.db") == old)
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("Standard input is read up to --max-tree-bytes (suffixes allowed) and refused past it")
    func standardInputLimit() throws {
        let box = try Sandbox()
        let folksData = try Data(contentsOf: Locations.folksXML)

        let refused = try box.run(
            ["-", "--xpath", "//person", "--max-tree-bytes", "200", "--out", "out.db"], stdin: folksData)
        let accepted = try box.run(
            ["-", "--xpath", "//person", "--max-tree-bytes", "1K", "--out", "out.db"], stdin: folksData)

        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("<stdin>: passed the tree limit of 200 bytes"), "\(refused)")
        #expect(accepted.status == 0, "\(accepted)")
        #expect(try box.rows("out.db", "SELECT * FROM people ORDER BY rowid") == folks)
    }

    @Test("Malformed XML in tree mode is one file:line:column diagnostic (65), nothing from libxml2 itself")
    func malformed() throws {
        let box = try Sandbox()
        try box.write("bad.xml", malformedXML)

        let result = try box.run(["bad.xml", "--xpath", "//person", "--out", "out.db"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.hasPrefix("ingest: bad.xml:3:31: Opening and ending tag mismatch"), "\(result)")
        #expect(try box.listing() == ["bad.xml"])
    }

    @Test("--xpath refuses JSON, --records beside it, --parse-only; --ns and --max-tree-bytes need it (64)")
    func usage() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("folks.json", #"{"people":[{"firstName":"Matt"}]}"#)

        for arguments in [
            ["folks.json", "--xpath", "//people"],
            ["folks.xml", "--from", "json", "--xpath", "//person"],
            ["folks.xml", "--xpath", "//person", "--records", "people/person"],
            ["folks.xml", "--xpath", "//person", "--parse-only"],
            ["folks.xml", "--ns", "a=urn:a"],
            ["folks.xml", "--max-tree-bytes", "1M"],
            ["folks.xml", "--xpath", "//person", "--max-tree-bytes", "12X"],
            ["folks.xml", "--xpath", "//a:person", "--ns", "a"]
        ] {
            let result = try box.run(arguments + ["--out", "out.db"])
            #expect(result.status == 64, "\(arguments): \(result)")
        }
        #expect(try box.listing() == ["folks.json", "folks.xml"])
    }

    @Test("ingest help import shows --xpath, --ns and --validate examples")
    func help() throws {
        let result = try Sandbox().run(["help", "import"])

        #expect(result.status == 0)
        let help = String(decoding: result.stdout, as: UTF8.self)
        #expect(help.contains("ingest folks.xml --xpath \"//person[lastName='Doright']\""), "\(help)")
        #expect(help.contains("--ns a=http://www.w3.org/2005/Atom"), "\(help)")
        #expect(help.contains("--validate Schemas/folks.xsd"), "\(help)")
    }
}
