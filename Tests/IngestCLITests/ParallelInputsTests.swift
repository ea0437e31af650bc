import Foundation
import Testing

/// `--jobs N` with several inputs into one output: parsed at once, written in input
/// order, the same database as one at a time.
@Suite("Several inputs into one output, parsed at once (--jobs)")
struct ParallelInputsTests {
    /// XML and JSON inputs of different sizes, one with a field the others lack.
    private func box() throws -> Sandbox {
        let box = try Sandbox()
        for (index, count) in [2_000, 5, 30_000, 700].enumerated() {
            if index == 1 {
                let items = (0..<count).map { #"{"name": "j\#($0)", "score": \#($0).5, "note": "only here"}"# }
                _ = try box.write("part\(index).json", #"{"people": [\#(items.joined(separator: ","))]}"#)
            } else {
                let items = (0..<count).map {
                    "<person id=\"\($0)\"><name>x\(index)-\($0)</name><score>\($0)</score></person>"
                }
                _ = try box.write("part\(index).xml", "<people>\n\(items.joined(separator: "\n"))\n</people>\n")
            }
        }
        return box
    }

    private let inputs = ["part0.xml", "part1.json", "part2.xml", "part3.xml"]

    /// Every table of `database`, its columns and its rows in rowid order, as text.
    private func dump(_ box: Sandbox, _ database: String) throws -> [[String?]] {
        let tables = try box.rows(database, "SELECT name, sql FROM sqlite_master ORDER BY name")
        var rows = tables
        for table in tables.compactMap({ $0.first ?? nil }) where !table.hasPrefix("sqlite_") {
            rows += try box.rows(database, "SELECT * FROM \"\(table)\" ORDER BY rowid")
        }
        return rows
    }

    @Test("--jobs 3 writes the same tables, columns and rows, in the same order, as --jobs 1")
    func sameDatabase() throws {
        let box = try box()
        let one = try box.run(inputs + ["--out", "one.db", "--jobs", "1"])
        let three = try box.run(inputs + ["--out", "three.db", "--jobs", "3", "-v"])
        #expect(one.status == 0 && one.stderr.isEmpty, "\(one)")
        #expect(three.status == 0, "\(three)")
        #expect(try box.rows("three.db", "SELECT count(*) FROM people") == [["32705"]])
        #expect(try dump(box, "three.db") == dump(box, "one.db"))
        #expect(
            three.stderrLines.last?.hasPrefix("ingest: 32705 records in 1 table (people) to three.db") == true,
            "\(three)")
        #expect(try box.temporaryLeftovers().isEmpty)
    }

    @Test("A bad input among them: exit 65 naming it, and the database as it was before")
    func aBadInputLeavesTheOutputAsItWas() throws {
        let box = try box()
        #expect(try box.run(["part3.xml", "--out", "all.db"]).status == 0)
        _ = try box.write("bad.xml", "<people>\n<person><name>a</name></person>\n<person><name>b</nam></person>\n")
        let result = try box.run([
            "part0.xml", "part2.xml", "bad.xml", "part1.json", "--out", "all.db", "--replace", "--jobs", "4"
        ])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == ["ingest: bad.xml:3:18: mismatched tag"], "\(result)")
        #expect(try box.rows("all.db", "SELECT count(*) FROM people") == [["700"]])
        #expect(try box.temporaryLeftovers().isEmpty)
    }

    /// A JSON Lines file of 10 MiB, read in parts with --jobs 3 (4 MiB at least each).
    private func bigLines(_ box: Sandbox, breakingLine broken: Int? = nil) throws {
        var text = ""
        for index in 0..<90_000 {
            let extra = index == 80_000 ? #", "late": "only here""# : ""
            let value = index + 1 == broken ? "tru" : "\(index % 7 == 0)"
            text +=
                #"{"id": \#(index), "name": "n\#(index)", "ok": \#(value), "pad": "\#(String(repeating: "x", count: 60))"\#(extra)}"#
            text += "\n"
        }
        _ = try box.write("big.ndjson", text)
    }

    @Test("One big JSON Lines file in parts (--jobs 3): the same database as --jobs 1")
    func oneBigFileInParts() throws {
        let box = try box()
        try bigLines(box)
        let one = try box.run(["big.ndjson", "--out", "one.db", "--jobs", "1"])
        let parts = try box.run(["big.ndjson", "--out", "parts.db", "--jobs", "3"])
        #expect(one.status == 0 && parts.status == 0 && parts.stderr.isEmpty, "\(parts)")
        #expect(try box.rows("parts.db", "SELECT count(*), count(late) FROM big") == [["90000", "1"]])
        #expect(try dump(box, "parts.db") == dump(box, "one.db"))
        #expect(try box.temporaryLeftovers().isEmpty)
    }

    @Test("A bad line in a later part: exit 65 at the file's line and column, the database as it was")
    func aBadLineInALaterPart() throws {
        let box = try box()
        try bigLines(box)
        #expect(try box.run(["big.ndjson", "--out", "big.db"]).status == 0)
        try bigLines(box, breakingLine: 70_001)
        let whole = try box.run(["big.ndjson", "--out", "big.db", "--replace", "--jobs", "1"])
        let parts = try box.run(["big.ndjson", "--out", "big.db", "--replace", "--jobs", "3"])
        #expect(parts.status == 65, "\(parts)")
        #expect(parts.stderrLines.first?.hasPrefix("ingest: big.ndjson:70001:") == true, "\(parts)")
        #expect(parts.stderrLines == whole.stderrLines)
        #expect(try box.rows("big.db", "SELECT count(*) FROM big") == [["90000"]])
        #expect(try box.temporaryLeftovers().isEmpty)
    }

    /// An XML file of 9 MiB, split between records with --jobs 3 beside the writer's
    /// thread, or --jobs 2 for a dry run (4 MiB at least each part).
    private func bigXML(_ box: Sandbox, breakingRecord broken: Int? = nil) throws {
        var text = "<?xml version=\"1.0\"?>\n<people source=\"test\">\n"
        for index in 0..<70_000 {
            let late = index == 60_000 ? "<late>only here</late>" : ""
            let close = index == broken ? "</nam>" : "</name>"
            text +=
                "  <person id=\"\(index)\">\n    <name>n\(index)\(close)\(late)<pad>\(String(repeating: "x", count: 60))</pad>\n  </person>\n"
        }
        _ = try box.write("big.xml", text + "</people>\n")
    }

    @Test("One big XML file in parts (--jobs 3, a dry run with --jobs 2): the same database and count as --jobs 1")
    func oneBigXMLFileInParts() throws {
        let box = try box()
        try bigXML(box)
        let one = try box.run(["big.xml", "--out", "one.db", "--jobs", "1"])
        let parts = try box.run(["big.xml", "--out", "parts.db", "--jobs", "3"])
        #expect(one.status == 0 && parts.status == 0 && parts.stderr.isEmpty, "\(parts)")
        #expect(try box.rows("parts.db", "SELECT count(*), count(late) FROM people") == [["70000", "1"]])
        #expect(try dump(box, "parts.db") == dump(box, "one.db"))
        let dry = try box.run(["big.xml", "--dry-run", "--jobs", "2", "-v"])
        #expect(dry.status == 0, "\(dry)")
        #expect(
            dry.stderrLines.last?.hasPrefix("ingest: 70000 records in 1 table (people), dry run: nothing written")
                == true,
            "\(dry)")
        #expect(try box.temporaryLeftovers().isEmpty)
    }

    @Test("A bad tag in a later part of an XML file: exit 65 at the file's line and column, the database as it was")
    func aBadTagInALaterXMLPart() throws {
        let box = try box()
        try bigXML(box)
        #expect(try box.run(["big.xml", "--out", "big.db"]).status == 0)
        try bigXML(box, breakingRecord: 50_000)
        let whole = try box.run(["big.xml", "--out", "big.db", "--replace", "--jobs", "1"])
        let parts = try box.run(["big.xml", "--out", "big.db", "--replace", "--jobs", "3"])
        let dry = try box.run(["big.xml", "--dry-run", "--jobs", "2"])
        #expect(parts.status == 65 && dry.status == 65, "\(parts)")
        #expect(parts.stderrLines.first?.hasPrefix("ingest: big.xml:150004:") == true, "\(parts)")
        #expect(parts.stderrLines == whole.stderrLines)
        #expect(dry.stderrLines == whole.stderrLines)
        #expect(try box.rows("big.db", "SELECT count(*) FROM people") == [["70000"]])
        #expect(try box.temporaryLeftovers().isEmpty)
    }

    @Test("--jobs takes 1 to 256")
    func jobsBounds() throws {
        let box = try box()
        for bad in ["0", "257", "-1"] {
            let result = try box.run(inputs + ["--out", "x.db", "--jobs", bad])
            #expect(result.status == 64, "\(result)")
        }
        #expect(!box.exists("x.db"))
    }
}
