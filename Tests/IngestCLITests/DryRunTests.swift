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
}
