import Foundation
import GRDB
import Testing

@Suite("Standard input and standard output")
struct StandardStreamTests {
    @Test("- reads standard input into --out")
    func stdinToFile() throws {
        let box = try Sandbox()

        let result = try box.run(["-", "--out", "out.db"], stdin: try Data(contentsOf: Locations.folksXML))

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("out.db", "SELECT * FROM people") == folks)
        #expect(try box.listing() == ["out.db"])
    }

    @Test("- without --out exits 64 and writes nothing")
    func stdinNeedsOut() throws {
        let box = try Sandbox()

        let result = try box.run(["-"], stdin: try Data(contentsOf: Locations.folksXML))

        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--out"), "\(result)")
        #expect(try box.listing().isEmpty)
    }

    @Test("Malformed standard input exits 65 and names <stdin>")
    func malformedStdin() throws {
        let box = try Sandbox()

        let result = try box.run(["-", "--out", "out.db"], stdin: Data(malformedXML.utf8))

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("<stdin>:3:"), "\(result)")
        #expect(try box.listing().isEmpty)
    }

    @Test("--out - writes a whole SQLite database to standard output, and nothing else")
    func databaseToStdout() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let scratch = try Sandbox()  // the tool's TMPDIR, to check it cleans up

        let result = try box.run(["-v", "folks.xml", "--out", "-"], environment: ["TMPDIR": scratch.directory.path])

        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.starts(with: Data("SQLite format 3\0".utf8)),
            "stdout starts with \(result.stdout.prefix(16) as NSData)")
        #expect(try box.listing() == ["folks.xml"], "nothing written in the current directory")
        #expect(try scratch.listing().isEmpty, "the staging file in TMPDIR is removed")
        #expect(result.stderr.contains("standard output"), "\(result)")

        // The bytes are a complete database.
        try box.write("copy.db", result.stdout)
        #expect(try box.rows("copy.db", "SELECT firstName, lastName FROM people") == folks)
    }

    @Test("- --out - pipes XML in and a database out")
    func stdinToStdout() throws {
        let box = try Sandbox()

        let result = try box.run(["-", "--out", "-", "-q"], stdin: try Data(contentsOf: Locations.folksXML))

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        try box.write("copy.db", result.stdout)
        #expect(try box.rows("copy.db", "SELECT firstName, lastName FROM people") == folks)
    }
}
