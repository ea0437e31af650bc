import Foundation
import Testing

/// Compressed inputs read as they are: gzip, bzip2, xz and zstd, told by their
/// first bytes, from files and standard input.
@Suite("Compressed inputs")
struct CompressedInputTests {
    /// The compressors and the name each one's output usually has.
    static let tools: [(command: String, suffix: String)] = [
        ("gzip", "gz"), ("bzip2", "bz2"), ("xz", "xz"), ("zstd", "zst")
    ]

    static func installed(_ command: String) -> Bool {
        ["/usr/bin", "/bin", "/usr/local/bin"].contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(command)")
        }
    }

    /// `data` compressed by `command` (`-c` to standard output).
    static func compress(_ data: Data, with command: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command, "-c", "-q"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        DispatchQueue.global().async {
            try? input.fileHandleForWriting.write(contentsOf: data)
            try? input.fileHandleForWriting.close()
        }
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }

    @Test(
        "Each format from a file: the same people, the output named without the suffixes",
        .enabled(
            if: tools.allSatisfy { installed($0.command) }, "gzip, bzip2, xz and zstd are needed to make the inputs"),
        arguments: tools.map(\.command))
    func fromFile(command: String) throws {
        let box = try Sandbox()
        let suffix = Self.tools.first { $0.command == command }!.suffix
        try box.write("folks.xml.\(suffix)", try Self.compress(Data(contentsOf: Locations.folksXML), with: command))

        let result = try box.run(["folks.xml.\(suffix)", "-v"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people") == folks)
        // Progress and the summary count the bytes of the file as stored: compressed.
        let stored = try box.contents("folks.xml.\(suffix)").count
        #expect(result.summary?.contains("; \(stored) B in ") == true, "\(result)")
    }

    @Test(
        "The format comes from the bytes, not the name; standard input works too",
        .enabled(if: installed("zstd") && installed("gzip"), "gzip and zstd are needed to make the inputs"))
    func byMagicBytes() throws {
        let box = try Sandbox()
        let lines = (1...300).map { #"{"id":\#($0),"name":"n\#($0)"}"# }.joined(separator: "\n") + "\n"
        // A zstd file named .gz, and JSON Lines whose kind the name before .zst tells.
        try box.write("misnamed.xml.gz", try Self.compress(Data(contentsOf: Locations.folksXML), with: "zstd"))
        try box.write("events.ndjson.zst", try Self.compress(Data(lines.utf8), with: "zstd"))

        let misnamed = try box.run(["misnamed.xml.gz"])
        let events = try box.run(["events.ndjson.zst"])
        let piped = try box.run(
            ["-", "--from", "ndjson", "--out", "piped.db"],
            stdin: try Self.compress(Data(lines.utf8), with: "gzip"))

        #expect(misnamed.status == 0, "\(misnamed)")
        #expect(try box.rows("misnamed.db", "SELECT count(*) FROM people") == [["3"]])
        #expect(events.status == 0, "\(events)")
        #expect(try box.rows("events.db", "SELECT count(*), max(id) FROM events") == [["300", "300"]])
        #expect(piped.status == 0, "\(piped)")
        #expect(try box.rows("piped.db", "SELECT count(*), sum(id) FROM piped") == [["300", "45150"]])
    }

    @Test(
        "A zstd input on a machine without libzstd: one line naming the file, exit 74, other formats still read",
        .enabled(if: installed("zstd") && installed("gzip"), "gzip and zstd are needed to make the inputs"))
    func zstdWithoutTheLibrary() throws {
        let box = try Sandbox()
        try box.write("folks.xml.zst", try Self.compress(Data(contentsOf: Locations.folksXML), with: "zstd"))
        try box.write("folks.xml.gz", try Self.compress(Data(contentsOf: Locations.folksXML), with: "gzip"))
        // INGEST_LIBZSTD names the library libzstd is loaded from; a path that does not exist
        // is what a machine without libzstd.so.1 sees.
        let missing = ["INGEST_LIBZSTD": box.directory.appendingPathComponent("nowhere/libzstd.so.1").path]

        let zstd = try box.run(["folks.xml.zst"], environment: missing)
        let gzip = try box.run(["folks.xml.gz", "--out", "gzip.db"], environment: missing)
        let named = try box.run(["folks.xml.zst", "--out", "named.db"], environment: ["INGEST_LIBZSTD": "libzstd.so.1"])

        #expect(zstd.status == 74, "\(zstd)")
        #expect(zstd.stderrLines.count == 1, "\(zstd)")
        #expect(
            zstd.stderr.hasPrefix("ingest: folks.xml.zst: cannot read zstd input: libzstd could not be loaded ("),
            "\(zstd)")
        #expect(zstd.stderr.contains("libzstd1"), "\(zstd)")
        #expect(!box.exists("folks.db"))
        #expect(gzip.status == 0, "\(gzip)")
        #expect(try box.rows("gzip.db", "SELECT count(*) FROM people") == [["3"]])
        #expect(named.status == 0, "\(named)")
        #expect(try box.rows("named.db", "SELECT firstName FROM people") == [["Matt"], ["Snidely"], ["Dudley"]])
    }

    @Test(
        "A corrupt or truncated stream exits 65 naming the file, and the old output stays",
        .enabled(
            if: tools.allSatisfy { installed($0.command) }, "gzip, bzip2, xz and zstd are needed to make the inputs"),
        arguments: tools.map(\.command))
    func corruptStream(command: String) throws {
        let box = try Sandbox()
        let suffix = Self.tools.first { $0.command == command }!.suffix
        var people = "<people>\n"
        for index in 0..<5_000 {
            people += "<person><firstName>F\(index)</firstName><lastName>L\(index)</lastName></person>\n"
        }
        people += "</people>\n"
        let compressed = try Self.compress(Data(people.utf8), with: command)
        var corrupt = compressed
        for index in stride(from: corrupt.count / 3, to: corrupt.count * 2 / 3, by: 7) { corrupt[index] ^= 0x5A }
        try box.write("corrupt.xml.\(suffix)", corrupt)
        try box.write("cut.xml.\(suffix)", compressed.prefix(compressed.count / 2))
        let old = Data("the previous database".utf8)
        try box.write("out.db", old)

        for name in ["corrupt.xml.\(suffix)", "cut.xml.\(suffix)"] {
            let result = try box.run([name, "--out", "out.db", "--replace"])
            #expect(result.status == 65, "\(name): \(result)")
            #expect(result.stderr.hasPrefix("ingest: \(name): "), "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(try box.contents("out.db") == old)
            #expect(try box.temporaryLeftovers() == [])
        }
    }

    @Test("--validate and --xpath read compressed inputs too", .enabled(if: installed("gzip"), "gzip makes the input"))
    func treeAndValidation() throws {
        let box = try Sandbox()
        try box.write("folks.xml.gz", try Self.compress(Data(contentsOf: Locations.folksXML), with: "gzip"))
        let schema = Locations.packageRoot.appendingPathComponent("Schemas/folks.xsd").path

        let validated = try box.run(["folks.xml.gz", "--validate", schema, "--out", "v.db"])
        let selected = try box.run(["folks.xml.gz", "--xpath", "//person[lastName='Doright']", "--out", "x.db"])
        let piped = try box.run(
            ["-", "--validate", schema, "--out", "p.db"],
            stdin: try Self.compress(Data(contentsOf: Locations.folksXML), with: "gzip"))

        #expect(validated.status == 0, "\(validated)")
        #expect(try box.rows("v.db", "SELECT count(*) FROM people") == [["3"]])
        #expect(selected.status == 0, "\(selected)")
        #expect(try box.rows("x.db", "SELECT firstName FROM people") == [["Dudley"]])
        #expect(piped.status == 0, "\(piped)")
        #expect(try box.rows("p.db", "SELECT count(*) FROM people") == [["3"]])
    }
}
