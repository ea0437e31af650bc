import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Exit status (sysexits)")
struct ExitCodeTests {
    @Test("A missing input exits 66, names the file, and writes nothing")
    func missingInput() throws {
        let box = try Sandbox()

        let result = try box.run(["nothere.xml"])

        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("nothere.xml"), "\(result)")
        #expect(try box.listing().isEmpty, "no output and no temporary file")
    }

    @Test("A directory as input exits 66")
    func directoryInput() throws {
        let box = try Sandbox()
        try FileManager.default.createDirectory(atPath: box.path("adir.xml"), withIntermediateDirectories: true)

        let result = try box.run(["adir.xml", "--out", "out.db"])

        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("adir.xml"), "\(result)")
        #expect(!box.exists("out.db"))
    }

    @Test("Malformed XML exits 65 with file:line:column: message, line 3")
    func malformedInput() throws {
        let box = try Sandbox()
        try box.write("bad.xml", malformedXML)

        let result = try box.run(["bad.xml"])

        #expect(result.status == 65, "\(result)")
        let diagnostic = #/ingest: bad\.xml:3:[0-9]+: mismatched tag.*/#
        #expect(result.stderrLines.contains { $0.wholeMatch(of: diagnostic) != nil }, "\(result)")
    }

    @Test("An unknown option exits 64")
    func unknownOption() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--frobnicate"])

        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("frobnicate"), "\(result)")
        #expect(try box.listing() == ["folks.xml"])
    }

    @Test("No input at all exits 64")
    func noInput() throws {
        let box = try Sandbox()
        let result = try box.run([])
        #expect(result.status == 64, "\(result)")
    }

    @Test("--replace with --append exits 64 and writes nothing")
    func replaceAndAppend() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--replace", "--append"])

        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--replace"), "\(result)")
        #expect(try box.listing() == ["folks.xml"])
    }

    @Test("An existing output without --replace or --append exits 73 and stays byte-for-byte the same")
    func existingOutputRefused() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let original = Data("not a database, but mine\n".utf8)
        try box.write("folks.db", original)

        let result = try box.run(["folks.xml"])

        #expect(result.status == 73, "\(result)")
        #expect(result.stderr.contains("folks.db"), "\(result)")
        #expect(try box.contents("folks.db") == original)
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("An existing database output (from a first run) is refused with 73 and unchanged")
    func existingDatabaseRefused() throws {
        let box = try Sandbox()
        try box.copyFolks()
        #expect(try box.run(["folks.xml", "-q"]).status == 0)
        let before = try box.contents("folks.db")

        let result = try box.run(["folks.xml", "-q"])

        #expect(result.status == 73, "\(result)")
        #expect(try box.contents("folks.db") == before)
    }

    @Test("An output in a nonexistent directory exits 73")
    func outputDirectoryMissing() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--out", "/nonexistent-dir/x.db"])

        #expect(result.status == 73, "\(result)")
        #expect(result.stderr.contains("x.db"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-dir"))
    }

    @Test("An output whose directory is a regular file exits 73")
    func outputDirectoryIsAFile() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--out", "folks.xml/x.db"])

        #expect(result.status == 73, "\(result)")
        #expect(try box.contents("folks.xml") == Data(contentsOf: Locations.folksXML))
    }

    @Test("An output in a read-only directory exits 73", .enabled(if: geteuid() != 0, "root writes anywhere"))
    func outputDirectoryReadOnly() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try FileManager.default.createDirectory(atPath: box.path("locked"), withIntermediateDirectories: true)
        #expect(chmod(box.path("locked"), 0o555) == 0)

        let result = try box.run(["folks.xml", "--out", "locked/x.db"])

        #expect(result.status == 73, "\(result)")
        #expect(try box.listing("locked").isEmpty)
    }
}
