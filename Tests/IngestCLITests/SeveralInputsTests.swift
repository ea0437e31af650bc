import Foundation
import Testing

/// Several inputs, one output each: every output is written all or nothing, a failed
/// input does not stop the others (unless --fail-fast), and the exit status is the
/// worst failure's.
@Suite("Several inputs, one failure")
struct SeveralInputsTests {
    private func box() throws -> Sandbox {
        let box = try Sandbox()
        try box.copyFolks(to: "a.xml")
        try box.copyFolks(to: "c.xml")
        _ = try box.write("b.xml", "<people><person></people>\n")
        return box
    }

    @Test("A bad input in the middle: the others are written, the bad one's output is not, exit 65")
    func carriesOn() throws {
        let box = try box()

        let result = try box.run(["a.xml", "b.xml", "c.xml"])

        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderrLines == [
                "ingest: b.xml:1:19: mismatched tag",
                "ingest: 1 of 3 inputs failed (b.xml); the others were written"
            ], "\(result)")
        #expect(try box.rows("a.db", "SELECT count(*) FROM people") == [["3"]])
        #expect(try box.rows("c.db", "SELECT count(*) FROM people") == [["3"]])
        #expect(!box.exists("b.db"))
        #expect(try box.temporaryLeftovers().isEmpty)
    }

    @Test("--fail-fast stops at the first failure: the inputs after it are not read")
    func failFast() throws {
        let box = try box()

        let result = try box.run(["a.xml", "b.xml", "c.xml", "--fail-fast"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == ["ingest: b.xml:1:19: mismatched tag"], "\(result)")
        #expect(box.exists("a.db") && !box.exists("b.db") && !box.exists("c.db"))
    }

    @Test("The exit status is the worst failure's: a missing input (66) over bad data (65), an output (73) over both")
    func worstStatus() throws {
        let box = try box()

        let missing = try box.run(["a.xml", "b.xml", "nosuch.xml"])
        // a.db is there now: refusing to overwrite it is an output failure (73).
        let exists = try box.run(["b.xml", "a.xml", "nosuch.xml"])

        #expect(missing.status == 66, "\(missing)")
        #expect(
            missing.stderrLines.last == "ingest: 2 of 3 inputs failed (b.xml, nosuch.xml); the other was written",
            "\(missing)")
        #expect(exists.status == 73, "\(exists)")
        #expect(
            exists.stderrLines.last == "ingest: 3 of 3 inputs failed (b.xml, a.xml, nosuch.xml); nothing was written",
            "\(exists)")
    }

    @Test("A re-run after fixing the bad input: --replace rebuilds every output, and the run succeeds")
    func rerunWithReplace() throws {
        let box = try box()
        #expect(try box.run(["a.xml", "b.xml", "c.xml"]).status == 65)
        try box.copyFolks(to: "b.xml")

        let plain = try box.run(["a.xml", "b.xml", "c.xml"])
        let replaced = try box.run(["a.xml", "b.xml", "c.xml", "--replace"])

        #expect(plain.status == 73, "\(plain)")
        #expect(
            plain.stderrLines.last == "ingest: 2 of 3 inputs failed (a.xml, c.xml); the other was written", "\(plain)")
        #expect(replaced.status == 0 && replaced.stderr.isEmpty, "\(replaced)")
        for name in ["a.db", "b.db", "c.db"] { #expect(try box.rows(name, "SELECT count(*) FROM people") == [["3"]]) }
    }

    @Test("--report lists the failed input's output with its status and error, beside the written ones")
    func report() throws {
        let box = try box()

        let result = try box.run(["a.xml", "b.xml", "c.xml", "--report", "run.json"])

        #expect(result.status == 65)
        let report = try #require(try JSONSerialization.jsonObject(with: box.contents("run.json")) as? [String: Any])
        let outputs = try #require(report["outputs"] as? [[String: Any]])
        #expect(report["exitStatus"] as? Int == 65)
        #expect(report["error"] as? String == "1 of 3 inputs failed (b.xml); the others were written")
        #expect(outputs.map { $0["output"] as? String } == ["a.db", "b.db", "c.db"])
        #expect(outputs[0]["records"] as? Int == 3 && outputs[2]["records"] as? Int == 3)
        #expect(
            outputs[1]["exitStatus"] as? Int == 65 && outputs[1]["error"] as? String == "b.xml:1:19: mismatched tag")
        #expect(outputs[1]["records"] == nil)
    }

    @Test("With --out, the inputs share one output: all or nothing, the previous output untouched")
    func oneOutput() throws {
        let box = try box()
        #expect(try box.run(["a.xml", "--out", "all.db"]).status == 0)
        let before = try box.contents("all.db")

        let result = try box.run(["a.xml", "b.xml", "c.xml", "--out", "all.db", "--replace"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == ["ingest: b.xml:1:19: mismatched tag"], "\(result)")
        #expect(try box.contents("all.db") == before)
    }
}
