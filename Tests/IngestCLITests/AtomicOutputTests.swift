import Foundation
import Testing

@Suite("Atomic output")
struct AtomicOutputTests {
    @Test("--replace with a malformed input exits 65 and leaves the old database byte-for-byte, no temporary files")
    func replaceWithMalformedKeepsOld() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("bad.xml", malformedXML)
        let first = try box.run(["folks.xml", "--out", "out.db", "-q"])
        try #require(first.status == 0, "\(first)")
        let before = try box.contents("out.db")

        let result = try box.run(["bad.xml", "--out", "out.db", "--replace"])

        #expect(result.status == 65, "\(result)")
        #expect(try box.contents("out.db") == before)
        #expect(try box.temporaryLeftovers() == [])
        #expect(try box.listing() == ["bad.xml", "folks.xml", "out.db"])
        #expect(try box.rows("out.db", "SELECT firstName, lastName FROM people") == folks)
    }

    @Test("--replace with a missing input exits 66 and leaves the old database byte-for-byte")
    func replaceWithMissingInputKeepsOld() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try #require(try box.run(["folks.xml", "-q"]).status == 0)
        let before = try box.contents("folks.db")

        let result = try box.run(["gone.xml", "--out", "folks.db", "--replace"])

        #expect(result.status == 66, "\(result)")
        #expect(try box.contents("folks.db") == before)
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("--append with a malformed input exits 65 and keeps the old rows (one transaction)")
    func appendWithMalformedKeepsOld() throws {
        let box = try Sandbox()
        try box.copyFolks()
        // Well-formed records first, so some rows were inserted before the error.
        try box.write(
            "half.xml",
            "<people>\n<person><firstName>A</firstName><lastName>B</lastName></person>\n<person><firstName>C</lastName>\n"
        )
        try #require(try box.run(["folks.xml", "-q"]).status == 0)

        let result = try box.run(["half.xml", "--out", "folks.db", "--append"])

        #expect(result.status == 65, "\(result)")
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people") == folks)
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("A malformed input with no existing output leaves no output file at all")
    func malformedLeavesNothing() throws {
        let box = try Sandbox()
        try box.write("bad.xml", malformedXML)

        let result = try box.run(["bad.xml"])

        #expect(result.status == 65, "\(result)")
        #expect(!box.exists("bad.db"))
        #expect(try box.listing() == ["bad.xml"], "only the input remains")
    }

    @Test("A malformed input with an explicit --out in a subdirectory leaves nothing there")
    func malformedLeavesNothingInOutputDirectory() throws {
        let box = try Sandbox()
        try box.write("bad.xml", malformedXML)
        try FileManager.default.createDirectory(atPath: box.path("outdir"), withIntermediateDirectories: true)

        let result = try box.run(["bad.xml", "--out", "outdir/result.db"])

        #expect(result.status == 65, "\(result)")
        #expect(try box.listing("outdir").isEmpty)
    }
}
