import Foundation
import Testing

/// `--validate` reads an input that can be read only once — a named pipe, a
/// `/dev/fd` pipe from a shell's `<(…)` — exactly once, validating and importing the
/// same bytes (issue 15, item 12: a named pipe hung, opened twice; `<(cat x)` failed
/// "no element found", read twice).
///
/// Each run is one `bash -c` script, so the writer of the pipe lives and dies with
/// the run; `timeout -s KILL` ends a run that would wait forever for a second writer.
@Suite("--validate with pipes")
struct ValidationPipeTests {
    static let schemas = Locations.packageRoot.appendingPathComponent("Schemas")
    static let xsd = schemas.appendingPathComponent("folks.xsd").path
    static let rng = schemas.appendingPathComponent("folks.rng").path

    /// Runs `script` with `$INGEST` set to the built binary, in `box`, with its own
    /// temporary directory (checked empty after: the spool leaves nothing behind).
    func bash(_ box: Sandbox, _ script: String) throws -> RunResult {
        let binary = try Locations.requireIngest()
        try FileManager.default.createDirectory(atPath: box.path("tmp"), withIntermediateDirectories: true)
        let result = try box.run(
            ["-c", script], environment: ["INGEST": binary.path, "TMPDIR": box.path("tmp")],
            executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(try box.listing("tmp").isEmpty, "the spool of the pipe is gone")
        return result
    }

    @Test("A named pipe: validated and imported, read once", arguments: [xsd, rng])
    func namedPipe(_ schema: String) throws {
        let box = try Sandbox()
        try box.copyFolks()
        let result = try bash(
            box,
            """
            mkfifo in.xml
            timeout -s KILL 30 cat folks.xml > in.xml &
            exec timeout -s KILL 30 "$INGEST" in.xml --validate '\(schema)' --out folks.db
            """)
        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people ORDER BY rowid") == folks)
    }

    @Test("A named pipe holding an invalid document: 65, the problems, the old output untouched")
    func invalidNamedPipe() throws {
        let box = try Sandbox()
        try box.write("bad.xml", ValidationCLITests.badFolks)
        try box.write("folks.db", "previous")
        let result = try bash(
            box,
            """
            mkfifo in.xml
            timeout -s KILL 30 cat bad.xml > in.xml &
            exec timeout -s KILL 30 "$INGEST" in.xml --validate '\(Self.xsd)' --out folks.db --replace
            """)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("in.xml:8: Element 'firstName'"), "\(result)")
        #expect(try box.contents("folks.db") == Data("previous".utf8))
        #expect(try box.temporaryLeftovers().isEmpty)
    }

    @Test(
        "A /dev/fd pipe from <(…): plain, compressed, and into tree mode",
        arguments: ["cat folks.xml", "gzip -c folks.xml"], [[], ["--xpath", "/people/person"]])
    func processSubstitution(_ producer: String, _ extra: [String]) throws {
        let box = try Sandbox()
        try box.copyFolks()
        let options = extra.map { "'\($0)'" }.joined(separator: " ")
        let result = try bash(
            box,
            """
            exec timeout -s KILL 30 "$INGEST" <(\(producer)) --validate '\(Self.xsd)' --to ndjson --out - -q \(options)
            """)
        #expect(result.status == 0, "\(result)")
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(
            lines == [
                #"{"firstName":"Matt","lastName":"Neuburg"}"#, #"{"firstName":"Snidely","lastName":"Whiplash"}"#,
                #"{"firstName":"Dudley","lastName":"Doright"}"#
            ], "\(result)")
    }

    @Test("A pipe and a file together, each validated, all imported into one output")
    func pipeAndFile() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let result = try bash(
            box,
            """
            exec timeout -s KILL 30 "$INGEST" <(cat folks.xml) folks.xml --validate '\(Self.rng)' --out all.db
            """)
        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("all.db", "SELECT count(*) FROM people") == [["6"]])
    }
}
