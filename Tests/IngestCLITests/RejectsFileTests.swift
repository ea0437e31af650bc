import Foundation
import Testing

/// `--rejects FILE` follows the rules of an output (issue 15, item 6): an existing
/// file is refused unless --replace, it is never an input or the output however it
/// is spelt, and it is written atomically.
@Suite("--rejects follows the output rules")
struct RejectsFileTests {
    /// firstName must be an integer: every one of folks.xml's three people is rejected.
    static let schema =
        #"{"entities": [{"name": "person", "records": "people/person", "table": "people", "fields": [{"name": "firstName", "type": "integer"}, {"name": "lastName"}]}]}"#

    func box() throws -> Sandbox {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("s.json", Self.schema)
        return box
    }

    func skip(_ arguments: [String]) -> [String] {
        ["folks.xml", "--schema", "s.json", "--on-error", "skip"] + arguments
    }

    @Test("An existing rejects file: 73 and untouched without --replace, replaced whole with it")
    func existingFile() throws {
        let box = try box()
        try box.write("r.ndjson", "earlier\n")

        let refused = try box.run(skip(["--rejects", "r.ndjson", "--out", "out.db"]))
        #expect(refused.status == 73, "\(refused)")
        #expect(refused.stderr.contains("r.ndjson: already exists; use --replace"), "\(refused)")
        #expect(try box.contents("r.ndjson") == Data("earlier\n".utf8))
        #expect(try box.listing() == ["folks.xml", "r.ndjson", "s.json"])

        let replaced = try box.run(skip(["--rejects", "r.ndjson", "--out", "out.db", "--replace"]))
        #expect(replaced.status == 0, "\(replaced)")
        let lines = String(decoding: try box.contents("r.ndjson"), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.contains(#""field":"firstName""#) }, "\(lines)")
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test(
        "The rejects file is never an input, however it is spelt",
        arguments: ["folks.xml", "./folks.xml", "link.xml", "hard.xml", "sub/../folks.xml"])
    func neverAnInput(spelling: String) throws {
        let box = try box()
        try FileManager.default.createDirectory(atPath: box.path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: box.path("link.xml"), withDestinationPath: "folks.xml")
        try FileManager.default.linkItem(atPath: box.path("folks.xml"), toPath: box.path("hard.xml"))
        let before = try box.contents("folks.xml")

        let result = try box.run(skip(["--rejects", spelling, "--out", "out.db", "--replace"]))

        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--rejects \(spelling) is also an input"), "\(result)")
        #expect(try box.contents("folks.xml") == before)
        #expect(!box.exists("out.db"))
    }

    @Test(
        "The rejects file is never the output, however it is spelt, whether or not the output exists yet",
        arguments: ["out.db", "./out.db", "sub/../out.db"], [false, true])
    func neverTheOutput(spelling: String, outputExists: Bool) throws {
        let box = try box()
        try FileManager.default.createDirectory(atPath: box.path("sub"), withIntermediateDirectories: true)
        if outputExists { try #require(try box.run(["folks.xml", "--out", "out.db"]).status == 0) }
        let before = outputExists ? try box.contents("out.db") : nil

        let result = try box.run(skip(["--rejects", spelling, "--out", "out.db"] + (outputExists ? ["--append"] : [])))

        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--rejects \(spelling) is also the output"), "\(result)")
        #expect((outputExists ? try box.contents("out.db") : nil) == before)
        #expect(box.exists("out.db") == outputExists)
    }

    @Test("--report is never an input, the output or the rejects file either")
    func reportIsDistinct() throws {
        let box = try box()
        for (arguments, message) in [
            (["--report", "./folks.xml"], "--report ./folks.xml is also an input"),
            (["--report", "./out.db"], "--report ./out.db is also the output"),
            (["--rejects", "r.ndjson", "--report", "./r.ndjson"], "--rejects and --report name the same file")
        ] {
            let result = try box.run(skip(["--out", "out.db"] + arguments))
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result)")
        }
        #expect(try box.listing() == ["folks.xml", "s.json"])
    }

    @Test("The output is never an input through another spelling either")
    func outputNeverAnInput() throws {
        let box = try box()
        let before = try box.contents("folks.xml")
        let result = try box.run(["./folks.xml", "--out", "folks.xml", "--to", "json", "--replace"])
        #expect(result.status == 64, "\(result)")
        #expect(try box.contents("folks.xml") == before)
    }

    @Test("A run that fails before setting anything aside leaves an existing rejects file as it was")
    func failedRunKeepsRejects() throws {
        let box = try box()
        try box.write("r.ndjson", "earlier\n")
        try box.write("bad.xml", malformedXML)

        let result = try box.run([
            "bad.xml", "--schema", "s.json", "--on-error", "skip", "--rejects", "r.ndjson", "--out", "out.db",
            "--replace"
        ])

        #expect(result.status == 65, "\(result)")
        #expect(try box.contents("r.ndjson") == Data("earlier\n".utf8))
        #expect(try box.temporaryLeftovers() == [])
    }
}
