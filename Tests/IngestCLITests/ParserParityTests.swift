import Foundation
import Testing

@Suite("--parser libxml2 beside Expat")
struct ParserParityTests {
    static let samples: [String] = {
        let directory = Locations.packageRoot.appendingPathComponent("Samples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    @Test("Every sample gives the same NDJSON records with either parser")
    func samplesGiveTheSameRecords() throws {
        try #require(Self.samples.count >= 4, "Samples/ holds \(Self.samples)")
        let box = try Sandbox()
        for sample in Self.samples {
            let path = Locations.packageRoot.appendingPathComponent("Samples/\(sample)").path
            let expat = try box.run([path, "--to", "ndjson", "--out", "-", "-q"])
            let libxml2 = try box.run([path, "--to", "ndjson", "--out", "-", "-q", "--parser", "libxml2"])
            #expect(expat.status == 0, "\(sample), expat: \(expat)")
            #expect(libxml2.status == 0, "\(sample), libxml2: \(libxml2)")
            #expect(!expat.stdout.isEmpty, "\(sample) gave no records")
            #expect(
                libxml2.stdout == expat.stdout,
                "\(sample):\nexpat:   \(String(decoding: expat.stdout, as: UTF8.self))\nlibxml2: \(String(decoding: libxml2.stdout, as: UTF8.self))"
            )
        }
    }

    @Test("feed.rss's items, with namespaces, CDATA and entities, match too")
    func feedItems() throws {
        let box = try Sandbox()
        let feed = Locations.packageRoot.appendingPathComponent("Samples/feed.rss").path
        let arguments = [feed, "--records", "rss/channel/item", "--to", "ndjson", "--out", "-", "-q"]
        let expat = try box.run(arguments)
        let libxml2 = try box.run(arguments + ["--parser", "libxml2"])
        #expect(expat.status == 0 && libxml2.status == 0, "\(expat) / \(libxml2)")
        #expect(String(decoding: expat.stdout, as: UTF8.self).split(separator: "\n").count >= 2)
        #expect(libxml2.stdout == expat.stdout)
    }

    @Test("folks.xml --parser libxml2 --to db gives a database with Expat's content")
    func folksDatabase() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let expat = try box.run(["folks.xml", "--to", "db", "--out", "expat.db", "-q"])
        let libxml2 = try box.run(["folks.xml", "--parser", "libxml2", "--to", "db", "--out", "libxml2.db", "-q"])
        try #require(expat.status == 0, "\(expat)")
        try #require(libxml2.status == 0, "\(libxml2)")

        #expect(try box.rows("libxml2.db", "SELECT * FROM people ORDER BY rowid") == folks)
        let schema = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
        #expect(try box.rows("libxml2.db", schema) == (try box.rows("expat.db", schema)))
        for table in try box.tables("expat.db") {
            let all = "SELECT * FROM \"\(table)\" ORDER BY rowid"
            #expect(try box.rows("libxml2.db", all) == (try box.rows("expat.db", all)), "table \(table)")
            let types =
                "SELECT \(try box.columns("expat.db", table: table).map { "typeof(\"\($0)\")" }.joined(separator: ", ")) FROM \"\(table)\" ORDER BY rowid"
            #expect(try box.rows("libxml2.db", types) == (try box.rows("expat.db", types)), "types in \(table)")
        }
    }

    @Test("--parse-only --parser libxml2 checks well-formedness")
    func parseOnly() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("bad.xml", malformedXML)

        let good = try box.run(["-v", "folks.xml", "--parse-only", "--parser", "libxml2"])
        let bad = try box.run(["bad.xml", "--parse-only", "--parser", "libxml2"])

        #expect(good.status == 0, "\(good)")
        #expect(good.stderr.contains("well-formed"), "\(good)")
        #expect(bad.status == 65, "\(bad)")
        #expect(try box.listing() == ["bad.xml", "folks.xml"], "parse-only writes nothing")
    }

    @Test("A malformed input: file:line:column, exit 65, the old output untouched")
    func malformedKeepsOldOutput() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("bad.xml", malformedXML)
        try #require(try box.run(["folks.xml", "--out", "out.db", "-q"]).status == 0)
        let before = try box.contents("out.db")

        let result = try box.run(["bad.xml", "--out", "out.db", "--replace", "--parser", "libxml2"])

        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderrLines.last
                == "ingest: bad.xml:3:31: Opening and ending tag mismatch: firstName line 3 and lastName",
            "\(result)")
        #expect(try box.contents("out.db") == before)
        #expect(try box.temporaryLeftovers() == [])
        #expect(try box.listing() == ["bad.xml", "folks.xml", "out.db"])
    }

    @Test("A Windows-1252 document: both parsers read it the same")
    func encodingOnlyLibXML2Reads() throws {
        let box = try Sandbox()
        var bytes = Data(#"<?xml version="1.0" encoding="windows-1252"?><people><person><name>Ren"#.utf8)
        bytes.append(contentsOf: [0xE9, 0x20, 0x80])  // é, space, €
        bytes.append(Data("</name></person></people>".utf8))
        try box.write("cp1252.xml", bytes)

        let libxml2 = try box.run(["cp1252.xml", "--parser", "libxml2", "--to", "ndjson", "--out", "-", "-q"])
        let expat = try box.run(["cp1252.xml", "--to", "ndjson", "--out", "-", "-q"])

        #expect(libxml2.status == 0, "\(libxml2)")
        #expect(String(decoding: libxml2.stdout, as: UTF8.self) == "{\"name\":\"René €\"}\n")
        #expect(expat.status == 0, "\(expat)")
        #expect(expat.stdout == libxml2.stdout)
    }

    @Test("An encoding libxml2 cannot read: exit 65, and the message names it")
    func unknownEncoding() throws {
        let box = try Sandbox()
        try box.write("odd.xml", #"<?xml version="1.0" encoding="X-NOT-AN-ENCODING"?><a><b>1</b></a>"#)

        let result = try box.run(["odd.xml", "--parser", "libxml2", "--out", "odd.db"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.last?.hasPrefix("ingest: odd.xml:1:") == true, "\(result)")
        #expect(result.stderr.contains("X-NOT-AN-ENCODING"), "\(result)")
        #expect(!box.exists("odd.db"))
    }

    @Test("--huge lifts libxml2's 10 MB limit on one attribute value; without it, exit 65")
    func huge() throws {
        let box = try Sandbox()
        try box.write("big.xml", "<rows><row v=\"" + String(repeating: "v", count: 10_000_001) + "\"/></rows>")

        let limited = try box.run(["big.xml", "--parser", "libxml2", "--dry-run"])
        let lifted = try box.run(["big.xml", "--parser", "libxml2", "--huge", "--dry-run"])
        let expat = try box.run(["big.xml", "--huge", "--dry-run"])

        #expect(limited.status == 65, "\(limited)")
        #expect(limited.stderr.contains("ingest: big.xml:1:"), "\(limited)")
        #expect(lifted.status == 0, "\(lifted)")
        #expect(expat.status == 64, "--huge is for libxml2 only: \(expat)")
    }

    @Test("ingest help import tells when to pick which parser")
    func help() throws {
        let result = try Sandbox().run(["help", "import"])
        let help = String(decoding: result.stdout, as: UTF8.self)
        #expect(help.contains("--parser"))
        #expect(help.contains("libxml2"))
        #expect(help.contains("--huge"))
        #expect(help.contains("--parser libxml2"), "an example uses it")
    }
}
