import Foundation
import Testing

/// Nesting up to the cap (`--max-depth` at most 10 000, ParseLimits.maxSupportedDepth)
/// imports into every output with either XML parser and from JSON, and one level
/// more is refused (issue 15, item 8: nesting of ~50 000 crashed with SIGSEGV on
/// every output). Every run has `ulimit -s 256`: the parse and its deep records run
/// on threads whose stack the library sets, and nothing deep runs on the main
/// thread, so the process's stack limit does not matter.
@Suite("Deep nesting, up to the cap")
struct DeepNestingTests {
    static let cap = 10_000

    /// A document whose first record holds a value nested so that the deepest
    /// element (or JSON value) is at depth `depth` exactly.
    struct Shape: CustomStringConvertible, Sendable {
        var name: String
        var fileName: String
        var make: @Sendable (Int) -> String
        /// The first record as NDJSON, at the cap.
        var expected: @Sendable (Int) -> String
        var description: String { name }
    }

    static let shapes = [
        // <r> 1, <a> 2, then <x> down to `depth`.
        Shape(
            name: "XML elements", fileName: "deep.xml",
            make: { depth in
                let n = depth - 2
                return "<r><a><id>1</id>" + String(repeating: "<x>", count: n) + "v"
                    + String(repeating: "</x>", count: n) + "</a><a><id>2</id></a></r>"
            },
            expected: { depth in
                // <x> with one child <x> is the list of its children's values.
                let n = depth - 2
                return #"{"id":1,"x":"# + String(repeating: "[", count: n - 1) + #""v""#
                    + String(repeating: "]", count: n - 1) + "}"
            }),
        // Each level an object holding a list: two JSON levels per XML level.
        Shape(
            name: "XML, attributes and repeated children", fileName: "deep2.xml",
            make: { depth in
                let n = depth - 3
                return "<r><a><id>1</id>" + String(repeating: #"<x k="1">"#, count: n) + "v"
                    + String(repeating: "<x/></x>", count: n) + "</a><a><id>2</id></a></r>"
            },
            expected: { depth in
                let n = depth - 3
                let open = String(repeating: #"{"@k":"1","x":["#, count: n - 1)
                let innermost = ##"{"@k":"1","x":"","#text":"v"}"##
                return #"{"id":1,"x":"# + open + innermost + String(repeating: #",""]}"#, count: n - 1) + "}"
            }),
        // The array 1, the record 2, its member 3, then arrays down to `depth`.
        Shape(
            name: "JSON", fileName: "deep.json",
            make: { depth in
                let n = depth - 3
                return #"[{"id":1,"x":"# + String(repeating: "[", count: n) + "1" + String(repeating: "]", count: n)
                    + #"},{"id":2}]"#
            },
            expected: { depth in
                let n = depth - 3
                return #"{"id":1,"x":"# + String(repeating: "[", count: n) + "1" + String(repeating: "]", count: n)
                    + "}"
            })
    ]

    static let outputs: [(String, [String])] = [
        ("db", ["--to", "db"]), ("plist xml", ["--to", "plist"]),
        ("plist binary", ["--to", "plist", "--plist-format", "binary"]),
        ("archive", ["--to", "archive"]), ("archive xml", ["--to", "archive", "--plist-format", "xml"]),
        ("json", ["--to", "json"]), ("ndjson", ["--to", "ndjson"])
    ]

    static var runs: [(Shape, String, String)] {
        shapes.flatMap { shape in
            (shape.fileName.hasSuffix(".json") ? ["json"] : ["expat", "libxml2"]).flatMap { parser in
                (outputs.map(\.0) + ["dry run"]).map { (shape, parser, $0) }
            }
        }
    }

    /// Runs `ingest` in `box` with a 256 KiB stack limit and a timeout.
    func run(_ box: Sandbox, _ arguments: [String], stack: String = "256") throws -> RunResult {
        let binary = try Locations.requireIngest()
        let quoted = ([binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try box.run(
            ["-c", "ulimit -s \(stack) && exec timeout -s KILL 120 \(quoted)"],
            executable: URL(fileURLWithPath: "/bin/bash"))
    }

    @Test("Nesting at the cap: no crash, exit 0, the record whole", arguments: runs)
    func atTheCap(_ shape: Shape, _ parser: String, _ output: String) throws {
        let box = try Sandbox()
        try box.write(shape.fileName, shape.make(Self.cap))
        var arguments = [shape.fileName, "--max-depth", String(Self.cap), "-q"]
        if parser != "json" { arguments += ["--parser", parser] }
        if output == "dry run" {
            arguments.append("--dry-run")
        } else {
            arguments += Self.outputs.first { $0.0 == output }!.1 + ["--out", "out.file"]
        }

        let result = try run(box, arguments)

        #expect(result.status == 0 && !result.crashed, "\(result)")
        #expect(try box.temporaryLeftovers().isEmpty)
        switch output {
        case "ndjson":
            let lines = String(decoding: try box.contents("out.file"), as: UTF8.self).split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.first.map(String.init) == shape.expected(Self.cap), "the nested value, exactly")
        case "db":
            let table = shape.fileName.hasSuffix(".json") ? "deep" : "r"
            let rows = try box.rows("out.file", "SELECT id, length(x) FROM \"\(table)\" ORDER BY rowid")
            #expect(rows.count == 2)
            let record = shape.expected(Self.cap)
            let x = record.dropFirst(#"{"id":1,"x":"#.count).dropLast()
            #expect(rows.first == ["1", String(x.utf8.count)], "the nested value, as JSON text of the right length")
        case "dry run":
            break
        default:
            let bytes = try box.contents("out.file")
            #expect(bytes.count > 1000)
            // Flat: no more than 64 tabs a line in XML (see XMLPlistWriter).
            #expect(bytes.count < 20_000_000, "\(bytes.count) bytes")
        }
    }

    @Test("Also with no stack limit at all, where threads would get 2 MiB by default")
    func unlimitedStack() throws {
        let box = try Sandbox()
        let shape = Self.shapes[1]
        try box.write(shape.fileName, shape.make(Self.cap))
        let result = try run(
            box, [shape.fileName, "--max-depth", String(Self.cap), "--to", "ndjson", "--out", "-"], stack: "unlimited")
        #expect(result.status == 0 && !result.crashed, "\(result)")
        #expect(String(decoding: result.stdout, as: UTF8.self).hasPrefix(shape.expected(Self.cap)))
    }

    @Test("One level past the cap: 65, the old output untouched", arguments: shapes)
    func pastTheCap(_ shape: Shape) throws {
        let box = try Sandbox()
        try box.write(shape.fileName, shape.make(Self.cap + 1))
        try box.write("out.db", "previous")

        let result = try run(box, [shape.fileName, "--max-depth", String(Self.cap), "--out", "out.db", "--replace"])

        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr.contains("nested deeper than \(Self.cap) levels (the deepest nesting ingest reads)"),
            "\(result)")
        #expect(try box.contents("out.db") == Data("previous".utf8))
        #expect(try box.temporaryLeftovers().isEmpty)
    }

    @Test("--max-depth past the cap is a usage error")
    func maxDepthPastTheCap() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let result = try box.run(["folks.xml", "--max-depth", String(Self.cap + 1)])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--max-depth must be from 1 to \(Self.cap)"), "\(result)")
    }
}
