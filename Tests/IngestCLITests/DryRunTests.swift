import Foundation
import Testing

@Suite("--dry-run")
struct DryRunTests {
    @Test("A valid input exits 0 and writes nothing")
    func valid() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["-v", "folks.xml", "--dry-run"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.listing() == ["folks.xml"])
        #expect(result.stdout.isEmpty)
        #expect((result.summary ?? "").hasPrefix("ingest: 3 records"), "\(result)")
    }

    @Test("A valid input exits 0 and leaves an existing output alone")
    func validWithExistingOutput() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let original = Data("keep me".utf8)
        try box.write("folks.db", original)

        let result = try box.run(["-v", "folks.xml", "--dry-run"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.contents("folks.db") == original)
        #expect((result.summary ?? "").hasPrefix("ingest: 3 records"), "\(result)")
    }

    @Test("A malformed input exits 65 and writes nothing")
    func malformed() throws {
        let box = try Sandbox()
        try box.write("bad.xml", malformedXML)

        let result = try box.run(["bad.xml", "--dry-run"])

        #expect(result.status == 65, "\(result)")
        #expect(try box.listing() == ["bad.xml"])
    }

    @Test("Standard input needs no --out with --dry-run")
    func stdin() throws {
        let box = try Sandbox()

        let result = try box.run(["-v", "-", "--dry-run"], stdin: try Data(contentsOf: Locations.folksXML))

        #expect(result.status == 0, "\(result)")
        #expect((result.summary ?? "").hasPrefix("ingest: 3 records"), "\(result)")
        #expect(try box.listing().isEmpty)
    }

    /// A file of many chunks, whose mapping has a thread of its own where a core is
    /// left for it (`--jobs 2`), and on one thread with `--jobs 1`: the same count,
    /// and the same error at the same place.
    @Test("A big file counts the same records and fails at the same place with --jobs 2 and --jobs 1")
    func bigFileOnTwoThreads() throws {
        let box = try Sandbox()
        var xml = "<people>\n"
        for index in 0..<12_000 {
            xml +=
                "  <person id=\"\(index)\"><name>Person \(index)</name><note>\(String(repeating: "x", count: 60))</note></person>\n"
        }
        try box.write("big.xml", xml + "</people>\n")
        try box.write("broken.xml", xml + "  <person><name>late</nme></person>\n</people>\n")
        #expect(xml.utf8.count > 4 * 256 * 1024)
        for jobs in ["2", "1"] {
            let good = try box.run(["-v", "big.xml", "--dry-run", "--jobs", jobs])
            #expect(good.status == 0, "\(good)")
            #expect((good.summary ?? "").hasPrefix("ingest: 12000 records"), "\(good)")
            let bad = try box.run(["broken.xml", "--dry-run", "--jobs", jobs])
            #expect(bad.status == 65, "\(bad)")
            // The line after the 12,000 people and the opening tag, at the mistyped end tag.
            #expect(bad.stderr.contains("broken.xml:12002:"), "\(bad)")
            #expect(bad.stderr.contains("mismatched tag"), "\(bad)")
        }
    }
}
