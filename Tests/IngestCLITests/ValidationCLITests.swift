import Foundation
import Testing

@Suite("--validate")
struct ValidationCLITests {
    static let schemas = Locations.packageRoot.appendingPathComponent("Schemas")
    static let xsd = schemas.appendingPathComponent("folks.xsd").path
    static let rng = schemas.appendingPathComponent("folks.rng").path

    /// folks.xml with a blank first name (line 8), an unexpected nickname (10) and an
    /// unexpected human (12); shared with the library's validation tests.
    static let badFolks = try! String(
        contentsOf: Locations.packageRoot.appendingPathComponent("Tests/Fixtures/folks-invalid.xml"), encoding: .utf8)

    @Test("A valid document imports as usual", arguments: [xsd, rng])
    func validImports(schema: String) throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--validate", schema])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("folks.db", "SELECT * FROM people ORDER BY rowid") == folks)
    }

    @Test("An invalid document exits 65 listing each problem's line; the old output is untouched")
    func invalidXSD() throws {
        let box = try Sandbox()
        try box.write("folks.xml", Self.badFolks)
        let old = Data("the previous database, byte for byte".utf8)
        try box.write("folks.db", old)

        let result = try box.run(["folks.xml", "--validate", Self.xsd, "--replace"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.count == 4, "\(result)")
        #expect(result.stderrLines[0].hasPrefix("ingest: folks.xml:8: Element 'firstName'"), "\(result)")
        #expect(
            result.stderrLines[1] == "ingest: folks.xml:10: Element 'nickname': This element is not expected.",
            "\(result)")
        #expect(result.stderrLines[2].hasPrefix("ingest: folks.xml:12: Element 'human'"), "\(result)")
        #expect(
            result.stderrLines[3] == "ingest: folks.xml: not valid against \(Self.xsd) (3 problems); nothing written")
        #expect(try box.contents("folks.db") == old)
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("RELAX NG: an invalid document exits 65 with its lines and writes nothing")
    func invalidRNG() throws {
        let box = try Sandbox()
        try box.write("folks.xml", Self.badFolks)

        let result = try box.run(["folks.xml", "--validate", Self.rng, "--to", "plist"])

        #expect(result.status == 65, "\(result)")
        for line in [8, 10, 12] {
            #expect(result.stderr.contains("ingest: folks.xml:\(line): "), "line \(line): \(result)")
        }
        #expect(try box.listing() == ["folks.xml"])
    }

    @Test("Problems are listed up to 20, then counted")
    func capped() throws {
        let box = try Sandbox()
        try box.write(
            "many.xml",
            "<people>\n" + String(repeating: "<person><firstName>A</firstName></person>\n", count: 30) + "</people>\n")

        let result = try box.run(["many.xml", "--validate", Self.xsd, "--dry-run"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.count == 22, "\(result)")
        #expect(result.stderr.contains("ingest: many.xml: … and 10 more problems"), "\(result)")
        #expect(result.stderr.contains("(30 problems)"), "\(result)")
    }

    @Test("Standard input is validated from a spool, then imported; nothing is left in TMPDIR")
    func standardInput() throws {
        let box = try Sandbox()
        try FileManager.default.createDirectory(atPath: box.path("tmp"), withIntermediateDirectories: true)
        let environment = ["TMPDIR": box.path("tmp")]

        let valid = try box.run(
            ["-", "--validate", Self.xsd, "--out", "out.db"],
            stdin: Data(contentsOf: Locations.folksXML), environment: environment)
        let invalid = try box.run(
            ["-", "--validate", Self.xsd, "--out", "bad.db"],
            stdin: Data(Self.badFolks.utf8), environment: environment)

        #expect(valid.status == 0, "\(valid)")
        #expect(try box.rows("out.db", "SELECT * FROM people ORDER BY rowid") == folks)
        #expect(invalid.status == 65, "\(invalid)")
        #expect(invalid.stderr.contains("ingest: <stdin>:8: "), "\(invalid)")
        #expect(!box.exists("bad.db"))
        #expect(try box.listing("tmp") == [])
    }

    @Test("Validation and tree mode together: the Doright record of a valid document")
    func withXPath() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--validate", Self.rng, "--xpath", "//person[lastName='Doright']"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("folks.db", "SELECT * FROM people") == [["Dudley", "Doright"]])
    }

    @Test("A missing schema exits 66, one that does not compile 64, an unknown kind or JSON 64")
    func schemaErrors() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write(
            "broken.xsd",
            """
            <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
              <xs:element name="people" type="xs:nonsense"/>
            </xs:schema>
            """)
        try box.write("people.dtd", "<!ELEMENT people ANY>")
        try box.write("folks.json", #"{"people":[]}"#)

        let missing = try box.run(["folks.xml", "--validate", "missing.xsd"])
        let broken = try box.run(["folks.xml", "--validate", "broken.xsd"])
        let unknown = try box.run(["folks.xml", "--validate", "people.dtd"])
        let json = try box.run(["folks.json", "--validate", Self.xsd])

        #expect(missing.status == 66, "\(missing)")
        #expect(missing.stderr.contains("missing.xsd: cannot open"), "\(missing)")
        #expect(broken.status == 64, "\(broken)")
        #expect(broken.stderr.contains("broken.xsd: does not compile as an XML Schema"), "\(broken)")
        #expect(broken.stderr.contains("broken.xsd:2: element decl. 'people'"), "\(broken)")
        #expect(unknown.status == 64, "\(unknown)")
        #expect(unknown.stderr.contains("(.xsd)"), "\(unknown)")
        #expect(json.status == 64, "\(json)")
        #expect(try box.listing() == ["broken.xsd", "folks.json", "folks.xml", "people.dtd"])
    }
}
