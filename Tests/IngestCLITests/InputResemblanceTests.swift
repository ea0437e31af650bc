import Foundation
import Testing

/// An input that is not XML or JSON is named for what it is, not for the parser's
/// first complaint; a record path naming a JSON array takes the array's items.
@Suite("Inputs that are not XML or JSON")
struct InputResemblanceTests {
    @Test(
        "Each kind of file is said to be what it looks like, with exit 65 and nothing written",
        arguments: [
            (
                "x.csv", Data("name,age\nAda,36\nGrace,45\n".utf8),
                "x.csv: looks like CSV text, not XML or JSON (the parser stopped at 1:1: "
            ),
            ("x.tsv", Data("name\tage\nAda\t36\n".utf8), "x.tsv: looks like tab-separated text, not XML or JSON"),
            ("x.xml", Data(), "x.xml: is empty: there is no XML or JSON in it"),
            (
                "blank.json", Data(" \n\n".utf8),
                "blank.json: holds nothing but white space: there is no XML or JSON in it"
            ),
            (
                "page.html", Data("<!DOCTYPE html>\n<html><body><p>one<br></body></html>\n".utf8),
                "page.html: looks like an HTML page, not XML or JSON (the parser stopped at 2:"
            ),
            ("notes", Data("Shopping list: milk and eggs\n".utf8), "notes: looks like plain text, not XML or JSON"),
            (
                "elf", Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 64)),
                "elf: looks like an executable (ELF), not XML or JSON"
            ),
            (
                "data.json", Data("%PDF-1.7\n%\u{E2}\u{E3}\n".utf8),
                "data.json: looks like a PDF document, not XML or JSON"
            )
        ])
    func named(file: String, content: Data, message: String) throws {
        let box = try Sandbox()
        _ = try box.write(file, content)

        let result = try box.run([file, "--out", "out.db"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderrLines[0].hasPrefix("ingest: " + message), "\(result)")
        #expect(!box.exists("out.db"))
    }

    @Test("A SQLite database given as an input, and a gzipped CSV file, are named too")
    func databaseAndCompressed() throws {
        let box = try Sandbox()
        try box.copyFolks()
        #expect(try box.run(["folks.xml", "--out", "folks.db"]).status == 0)
        _ = try box.write("x.csv.gz", Data(Gzip.compress(Array("a,b\n1,2\n".utf8))))

        let database = try box.run(["folks.db", "--out", "again.db"])
        let compressed = try box.run(["x.csv.gz", "--out", "x.db"])

        #expect(
            database.status == 65
                && database.stderr.contains("folks.db: looks like a SQLite database, not XML or JSON"), "\(database)")
        #expect(
            compressed.status == 65 && compressed.stderr.contains("x.csv.gz: looks like CSV text, not XML or JSON"),
            "\(compressed)")
    }

    @Test("Standard input is named for what it looks like too, from the bytes it sent; broken XML keeps its message")
    func standardInput() throws {
        let box = try Sandbox()

        let csv = try box.run(["-", "--out", "x.db"], stdin: Data("name,age\nAda,36\nGrace,45\n".utf8))
        let elf = try box.run(
            ["-", "--out", "e.db"], stdin: Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 64))
        )
        let broken = try box.run(["-", "--out", "b.db"], stdin: Data("<people>\n<person>Ada</persn>\n</people>\n".utf8))

        #expect(
            csv.status == 65
                && csv.stderrLines.first?.hasPrefix("ingest: <stdin>: looks like CSV text, not XML or JSON") == true,
            "\(csv)")
        #expect(
            elf.status == 65 && elf.stderr.contains("<stdin>: looks like an executable (ELF), not XML or JSON"),
            "\(elf)")
        #expect(broken.status == 65 && broken.stderrLines == ["ingest: <stdin>:2:14: mismatched tag"], "\(broken)")
        #expect(try box.listing() == [], "nothing written")
    }

    @Test("A broken XML or JSON file keeps the parser's own message and position")
    func brokenDocumentsKeepTheirMessage() throws {
        let box = try Sandbox()
        _ = try box.write("bad.xml", "<people>\n<person>Ada</persn>\n</people>\n")
        _ = try box.write("bad.json", "[{\"a\": 1},\n {\"a\": }]\n")

        let xml = try box.run(["bad.xml", "--out", "x.db"])
        let json = try box.run(["bad.json", "--out", "j.db"])

        #expect(xml.status == 65 && xml.stderrLines == ["ingest: bad.xml:2:14: mismatched tag"], "\(xml)")
        #expect(
            json.status == 65 && json.stderrLines.first?.hasPrefix("ingest: bad.json:2:") == true
                && !json.stderr.contains("looks like"), "\(json)")
    }

    @Test("White space past the sample, UTF-16 XML and a broken compressed stream keep the real error")
    func notMistakenForSomethingElse() throws {
        let box = try Sandbox()
        _ = try box.write("padded.json", Data((String(repeating: " ", count: 5000) + #"[{"a":1},{"a":}]"#).utf8))
        let padded = try box.run(["padded.json", "--out", "p.db"])
        #expect(padded.status == 65 && padded.stderr.contains("padded.json:1:"), "\(padded)")
        #expect(!padded.stderr.contains("white space"), "\(padded)")

        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "<r><a>1</b></r>".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        _ = try box.write("wide.xml", Data(utf16))
        let wide = try box.run(["wide.xml", "--out", "w.db"])
        #expect(wide.status == 65 && wide.stderr.contains("mismatched tag"), "\(wide)")
        #expect(!wide.stderr.contains("binary"), "\(wide)")

        let corrupt = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03] + Array("garbage garbage".utf8))
        let piped = try box.run(["-", "--out", "c.db"], stdin: corrupt)
        #expect(piped.status == 65 && piped.stderr.contains("corrupt gzip stream"), "\(piped)")
        #expect(!piped.stderr.contains("empty"), "\(piped)")
    }

    @Test("--records naming a JSON array takes its items as the records, in a table named after the array")
    func recordsNamingAnArray() throws {
        let box = try Sandbox()
        _ = try box.write(
            "p.json", #"{"meta": {"n": 2}, "people": [{"name": "Ada", "age": 36}, {"name": "Grace", "age": 45}]}"#)
        _ = try box.write("nested.json", #"{"org": {"people": [{"name": "Ada"}, {"name": "Grace"}]}}"#)

        let ndjson = try box.run(["p.json", "--records", "people", "--to", "ndjson", "--out", "-"])
        let database = try box.run(["p.json", "--records", "people", "--out", "p.db"])
        let deeper = try box.run(["nested.json", "--records", "org/people", "--to", "ndjson", "--out", "-"])
        let explicit = try box.run(["nested.json", "--records", "org/people/item", "--to", "ndjson", "--out", "-"])

        #expect(ndjson.status == 0, "\(ndjson)")
        #expect(
            String(decoding: ndjson.stdout, as: UTF8.self)
                == "{\"name\":\"Ada\",\"age\":36}\n{\"name\":\"Grace\",\"age\":45}\n")
        #expect(database.status == 0, "\(database)")
        #expect(try box.tables("p.db") == ["people"])
        #expect(
            try box.rows("p.db", "SELECT name, age, typeof(age) FROM people") == [
                ["Ada", "36", "integer"], ["Grace", "45", "integer"]
            ])
        #expect(deeper.stdout == explicit.stdout && deeper.status == 0 && explicit.status == 0, "\(deeper) \(explicit)")
        #expect(String(decoding: deeper.stdout, as: UTF8.self) == "{\"name\":\"Ada\"}\n{\"name\":\"Grace\"}\n")
    }
}
