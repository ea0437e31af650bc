import Foundation
import Testing

/// `--out -` streams: records reach standard output as they are made, not when the
/// input ends, and a reader that closes the pipe ends the run quietly.
@Suite("Streaming to standard output")
struct StreamingOutputTests {
    /// Runs `ingest arguments` under bash with standard input a pipe: writes
    /// `first`, waits for a line on standard output (up to 20 s), notes whether one
    /// came, then writes `rest` and closes the pipe. Prints `early:LINE` or `late`,
    /// then the exit status.
    private func firstLineBeforeEnd(_ box: Sandbox, first: String, rest: String, _ arguments: [String]) throws -> String
    {
        let binary = try Locations.requireIngest()
        let script = """
            import subprocess, sys, select
            process = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            process.stdin.write(sys.argv[1].encode()); process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 20)
            print("early:" + process.stdout.readline().decode().strip() if ready else "late")
            process.stdin.write(sys.argv[2].encode()); process.stdin.close()
            process.stdout.read()
            print(process.wait())
            """
        let result = try box.run(
            ["python3", "-c", script, first, rest, binary.path] + arguments,
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        return String(decoding: result.stdout, as: UTF8.self)
    }

    @Test("The first NDJSON line arrives while the input is still open (JSON Lines in)")
    func firstLineFromJSONLines() throws {
        let box = try Sandbox()
        let output = try firstLineBeforeEnd(
            box, first: "{\"a\":1}\n", rest: "{\"a\":2}\n",
            ["-", "--nl", "--to", "ndjson", "--out", "-"])
        #expect(output == "early:{\"a\":1}\n0\n", "\(output)")
    }

    @Test(
        "The first NDJSON line arrives while the input is still open (XML in, with a schema too)",
        arguments: [false, true])
    func firstLineFromXML(schema: Bool) throws {
        let box = try Sandbox()
        var arguments = ["-", "--from", "xml", "--to", "ndjson", "--out", "-"]
        if schema {
            _ = try box.write(
                "p.json",
                """
                {"entities": [{"name": "p", "records": "r/p", "table": "p", "fields": [{"name": "a", "type": "integer"}]}]}
                """)
            arguments += ["--schema", "p.json"]
        } else {
            arguments += ["--records", "r/p"]
        }
        let output = try firstLineBeforeEnd(
            box, first: "<r><p><a>1</a></p>\n", rest: "<p><a>2</a></p></r>\n", arguments)
        #expect(output == "early:{\"a\":1}\n0\n", "\(output)")
    }

    @Test("A reader that closes the pipe (| head -1) ends the run quietly with status 0, leaving no temporary file")
    func readerCloses() throws {
        let box = try Sandbox()
        let lines = (0..<200_000).map { "{\"id\":\($0),\"name\":\"n\($0)\"}" }.joined(separator: "\n")
        _ = try box.write("big.ndjson", lines)
        let binary = try Locations.requireIngest()
        for to in ["ndjson", "json", "plist", "db"] {
            let tmp = box.path("tmp-\(to)")
            try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
            let result = try box.run(
                [
                    "bash", "-c",
                    "TMPDIR='\(tmp)' '\(binary.path)' big.ndjson --to \(to) --out - | head -c 10 >/dev/null; echo ${PIPESTATUS[0]}"
                ],
                executable: URL(fileURLWithPath: "/usr/bin/env"))
            #expect(String(decoding: result.stdout, as: UTF8.self) == "0\n", "--to \(to): \(result)")
            #expect(result.stderr.isEmpty, "--to \(to): \(result.stderr)")
            #expect(try box.listing("tmp-\(to)").isEmpty, "--to \(to) left a file in TMPDIR")
        }
    }

    /// Run under SIGPIPE's default and under an inherited `SIG_IGN` (as some CI
    /// runners and `nohup`-style wrappers leave it): the outcome is the same.
    @Test(
        "ingest feed to a reader that stops early ends there, silently, with 0, leaving nothing in TMPDIR",
        arguments: ["", "trap '' PIPE; "])
    func feedReaderCloses(sigpipe: String) throws {
        let box = try Sandbox()
        let items = (0..<50_000).map { "<item><title>i\($0)</title><guid>g\($0)</guid></item>" }.joined()
        _ = try box.write("many.rss", "<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>")
        _ = try box.write("second.rss", "<rss version=\"2.0\"><channel><title>second</title>\(items)</channel></rss>")
        let binary = try Locations.requireIngest()
        for to in ["ndjson", "json"] {
            let tmp = box.path("tmp-\(to)")
            try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
            let script =
                "\(sigpipe)TMPDIR='\(tmp)' '\(binary.path)' feed many.rss second.rss --to \(to) --out - --report report.json"
                + " | head -c 10 >/dev/null; echo ${PIPESTATUS[0]}"
            let result = try box.run(["bash", "-c", script], executable: URL(fileURLWithPath: "/usr/bin/env"))
            #expect(String(decoding: result.stdout, as: UTF8.self) == "0\n", "--to \(to): \(result)")
            #expect(result.stderr.isEmpty, "--to \(to): \(result.stderr)")
            #expect(try box.listing("tmp-\(to)").isEmpty, "--to \(to) left a file in TMPDIR")
            let report = String(decoding: try box.contents("report.json"), as: UTF8.self)
            #expect(report.contains("\"exitStatus\": 0,\n  \"error\": null"), "--to \(to): \(report)")
        }
    }

    @Test(
        "Streamed JSON, NDJSON and XML plists are the bytes of the file, empty or not, and need no TMPDIR",
        arguments: ["json", "ndjson", "plist"])
    func sameBytesAsFile(to: String) throws {
        let box = try Sandbox()
        try box.copyFolks()
        _ = try box.write("empty.json", "[]")
        for input in ["folks.xml", "empty.json"] {
            let file = try box.run([input, "--to", to, "--out", "file.out", "--replace"])
            let streamed = try box.run([input, "--to", to, "--out", "-"], environment: ["TMPDIR": box.path("missing")])
            #expect(file.status == 0 && streamed.status == 0, "\(file) \(streamed)")
            #expect(streamed.stdout == (try box.contents("file.out")), "\(input) --to \(to)")
        }
    }

    @Test("A schema with child tables is built whole, then copied: an object of arrays by table")
    func severalTablesAreCopied() throws {
        let box = try Sandbox()
        _ = try box.write("people.xml", "<people><person><name>A</name><tag>x</tag><tag>y</tag></person></people>")
        _ = try box.write(
            "s.json",
            """
            {"entities": [{"name": "person", "records": "people/person", "table": "people", "primaryKey": "name",
              "fields": [{"name": "name"}],
              "children": [{"name": "tag", "records": "tag", "table": "tags", "foreignKey": "person_name",
                            "fields": [{"name": "tag", "source": "."}]}]}]}
            """)
        let result = try box.run(["people.xml", "--schema", "s.json", "--to", "json", "--out", "-"])

        #expect(result.status == 0, "\(result)")
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(object?.keys.sorted() == ["people", "tags"], "\(String(decoding: result.stdout, as: UTF8.self))")
    }
}
