import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Usage errors exit 64 before any work (issue 15, item 13): the input is never
/// opened, the output never touched. The input here is a named pipe nobody writes
/// to, so a command that opened it would wait forever; `timeout` ends such a run
/// with 137.
@Suite("Usage errors before any work")
struct UsageErrorTests {
    /// Runs `ingest` under `timeout -s KILL 20`, in `box` (KILL: the test process may
    /// hand its children a mask that blocks SIGTERM).
    func run(_ box: Sandbox, _ arguments: [String]) throws -> RunResult {
        let binary = try Locations.requireIngest()
        return try box.run(
            ["timeout", "-s", "KILL", "20", binary.path] + arguments, executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    /// A sandbox with `input.xml` a named pipe and `folks.db` an existing output.
    func sandbox() throws -> Sandbox {
        let box = try Sandbox()
        #expect(mkfifo(box.path("input.xml"), 0o600) == 0)
        try box.write("folks.db", "the previous output")
        return box
    }

    @Test("--records that is no path: 64 at once", arguments: ["", "/", "a//b", "//", "a/", "people//person"])
    func notAPath(_ records: String) throws {
        let box = try sandbox()
        let result = try run(box, ["input.xml", "--records", records, "--out", "folks.db", "--replace"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--records"), "\(result)")
        #expect(try box.contents("folks.db") == Data("the previous output".utf8))
    }

    @Test("--records with one step for XML: 64 at once, for any output", arguments: ["db", "plist", "json"])
    func singleStepXML(_ to: String) throws {
        let box = try sandbox()
        let result = try run(box, ["input.xml", "--records", "person", "--to", to, "--out", "folks.db", "--replace"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--records person"), "\(result)")
        #expect(result.stderr.contains("people/person"), "the message shows a path that would work: \(result)")
        #expect(try box.contents("folks.db") == Data("the previous output".utf8))
    }

    @Test("--records with one step when a later input is XML: 64 before the first is read")
    func singleStepWithAnXMLInputAmongOthers() throws {
        let box = try sandbox()
        #expect(mkfifo(box.path("first.json"), 0o600) == 0)
        try box.copyFolks(to: "noname")  // XML, told by its first bytes
        let result = try run(box, ["first.json", "noname", "--records", "item", "--out", "out.db"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("noname is XML"), "\(result)")
        #expect(!box.exists("out.db"))
    }

    @Test("--out '' is 64 at once")
    func emptyOut() throws {
        let box = try sandbox()
        let result = try run(box, ["input.xml", "--out", ""])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--out"), "\(result)")
    }

    @Test("--records item reads a top-level JSON array", arguments: ["db", "ndjson"])
    func itemOfATopLevelArray(_ to: String) throws {
        let box = try Sandbox()
        try box.write("people.json", #"[{"name":"Ann","n":1},{"name":"Bo","n":2}]"#)
        let result = try box.run(["people.json", "--records", "item", "--to", to, "--out", "out.\(to)", "-q"])
        #expect(result.status == 0, "\(result)")
        if to == "db" {
            #expect(try box.rows("out.db", "SELECT name, n FROM people ORDER BY rowid") == [["Ann", "1"], ["Bo", "2"]])
        } else {
            #expect(
                try box.contents("out.ndjson") == Data("{\"name\":\"Ann\",\"n\":1}\n{\"name\":\"Bo\",\"n\":2}\n".utf8))
        }
    }

    @Test("--records item reads JSON Lines, also from standard input")
    func itemOfJSONLines() throws {
        let box = try Sandbox()
        let lines = "{\"name\":\"Ann\"}\n{\"name\":\"Bo\"}\n"
        try box.write("events.ndjson", lines)
        let file = try box.run(["events.ndjson", "--records", "item", "--out", "events.db", "-q"])
        #expect(file.status == 0, "\(file)")
        #expect(try box.rows("events.db", "SELECT name FROM events ORDER BY rowid") == [["Ann"], ["Bo"]])

        let piped = try box.run(
            ["-", "--nl", "--records", "item", "--to", "ndjson", "--out", "-", "-q"], stdin: Data(lines.utf8))
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.stdout == Data(lines.utf8))
    }
}
