import Foundation
import Testing

/// One huge record is bounded by the documented limits, and costs memory within a
/// small multiple of its size (issue 15, item 10).
@Suite("Huge records")
struct RecordSizeTests {
    @Test(
        "An attribute value over --max-text-bytes is a data error naming it, with either parser",
        arguments: ["expat", "libxml2"])
    func longAttribute(parser: String) throws {
        let box = try Sandbox()
        try box.write("big.xml", "<r><a v=\"" + String(repeating: "x", count: 1_100_000) + "\"/></r>")

        let result = try box.run(["big.xml", "--parser", parser, "--max-text-bytes", "1M", "--out", "out.db"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("longer than 1048576 bytes"), "\(result)")
        #expect(result.stderr.contains("--max-text-bytes"), "\(result)")
        #expect(!box.exists("out.db"))
    }

    @Test("Nested data of one field counts against --max-text-bytes too", arguments: ["json", "xml"])
    func longNestedValue(format: String) throws {
        let box = try Sandbox()
        let items = (0..<60_000).map { format == "json" ? "\"item \($0)\"" : "<i>item \($0)</i>" }
        let document =
            format == "json"
            ? #"[{"list": ["# + items.joined(separator: ",") + "]}]"
            : "<r><a><list>" + items.joined() + "</list></a></r>"
        try box.write("big.\(format)", document)

        let refused = try box.run(["big.\(format)", "--max-text-bytes", "512K", "--out", "out.db"])
        let accepted = try box.run(["big.\(format)", "--max-text-bytes", "2M", "--out", "ok.db"])

        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("nested data of one field exceeds 524288 bytes"), "\(refused)")
        #expect(accepted.status == 0, "\(accepted)")
    }

    @Test(
        "A comment longer than --max-text-bytes stops either parser instead of filling memory, --huge or not",
        arguments: [[], ["--parser", "libxml2"], ["--parser", "libxml2", "--huge"]])
    func longComment(parser: [String]) throws {
        let box = try Sandbox()
        try box.write("c.xml", "<r><!--" + String(repeating: "c", count: 3_000_000) + "--><a><v>1</v></a></r>")

        let result = try box.run(["c.xml", "--max-text-bytes", "1M", "--out", "out.db"] + parser)
        let accepted = try box.run(["c.xml", "--out", "ok.db"] + parser)

        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr.contains("c.xml:1:4: more than 1048576 bytes without a complete tag or text"), "\(result)")
        #expect(result.stderr.contains("--max-text-bytes"), "\(result)")
        #expect(!box.exists("out.db"))
        #expect(accepted.status == 0, "\(accepted)")
    }

    @Test(
        "A 30 MB record takes memory within a small multiple of its size",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time measures peak memory"))
    func memoryOfOneHugeRecord() throws {
        let box = try Sandbox()
        let items = (0..<1_500_000).map { "\"v\($0)\"" }.joined(separator: ",")  // about 15 MB
        try box.write("huge.ndjson", #"{"id": 1, "list": ["# + items + "]}\n" + #"{"id": 2, "list": []}"# + "\n")
        let size = try box.contents("huge.ndjson").count

        let binary = try Locations.requireIngest()
        let result = try box.run(
            ["-f", "%M", binary.path, "huge.ndjson", "--out", "out.db"],
            executable: URL(fileURLWithPath: "/usr/bin/time"))

        #expect(result.status == 0, "\(result)")
        let peakKB = try #require(
            result.stderrLines.last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }, "\(result)")
        #expect(peakKB * 1024 < size * 8 + 40 << 20, "peak \(peakKB) KB for a \(size)-byte record")
        #expect(try box.rows("out.db", "SELECT count(*), length(list) > \(size / 2) FROM huge") == [["2", "1"]])
    }
}
