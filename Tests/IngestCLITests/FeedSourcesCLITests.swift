import Foundation
import Testing

/// `ingest feed`'s sources at their edges: how failures name them, directories,
/// `--report`, what the archive keeps of a source that could not be read, and what
/// `-v` says of ill-formed feeds.
@Suite("ingest feed: failures named once, directories, --report, rows of failed files, ill-formed feeds counted")
struct FeedSourcesCLITests {
    /// Not well-formed (a bare `&`): read again in recovering mode.
    static let illFormed =
        #"<rss version="2.0"><channel><title>Fish & Chips</title><item><guid>x</guid><title>X</title></item></channel></rss>"#

    @Test("each failure names its source once: a missing file, standard input, a place in a file, in every output")
    func namedOnce() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.rss", feedText(threeItems))
        try sandbox.write("broken.json", "{\"version\": \"https://jsonfeed.org/version/1.1\",\n \"title\": }")
        let missing = try sandbox.run(["feed", "nosuch.rss", "good.rss"])
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.stderrLines == ["ingest: nosuch.rss: cannot open: No such file or directory"], "\(missing)")

        let empty = try sandbox.run(["feed", "-"], stdin: Data())
        #expect(empty.status == 65, "\(empty)")
        #expect(empty.stderrLines == ["ingest: <stdin>: empty input: not a feed"], "\(empty)")

        let broken = try sandbox.run(["feed", "broken.json"])
        #expect(broken.status == 65, "\(broken)")
        #expect(broken.stderrLines.count == 1 && broken.stderrLines[0].hasPrefix("ingest: broken.json:2:"), "\(broken)")
        #expect(broken.stderr.components(separatedBy: "broken.json").count == 2, "\(broken)")
        // broken.json, never archived, has no row.
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM feeds") == [["1"]])

        for kind in ["json", "ndjson"] {
            let written = try sandbox.run(["feed", "nosuch.rss", "good.rss", "--to", kind, "--out", "-"])
            #expect(written.status == 66, "\(written)")
            #expect(written.stderrLines == ["ingest: nosuch.rss: cannot open: No such file or directory"], "\(written)")
        }
    }

    @Test("an output that is not an archive is named once")
    func outputNamedOnce() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.rss", feedText(threeItems))
        try sandbox.write(
            "notes.db",
            "not a database at all, but long enough to be read as one: " + String(repeating: "x", count: 200))
        let result = try sandbox.run(["feed", "good.rss", "--out", "notes.db"])
        #expect(result.status == 73 || result.status == 74, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.components(separatedBy: "notes.db").count == 2, "\(result)")
    }

    @Test(
        "a directory is the feed files directly in it, by name; hidden files, subdirectories and the output are left out"
    )
    func directory() throws {
        let sandbox = try Sandbox()
        try sandbox.write("feeds/b.rss", feedText([("b", "B", "b")], title: "B"))
        try sandbox.write(
            "feeds/a.atom",
            try String(
                contentsOf: FeedCLITests.samples.appendingPathComponent("news.atom"),
                encoding: .utf8))
        try sandbox.write("feeds/.draft.rss", "not a feed")
        try sandbox.write("feeds/old/c.rss", feedText([("c", "C", "c")], title: "C"))
        let result = try sandbox.run(["feed", "feeds/", "--out", "feeds/archive.db", "-v"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderrLines.filter { $0.hasPrefix("ingest: reading ") }
                == ["ingest: reading feeds/a.atom", "ingest: reading feeds/b.rss"], "\(result)")
        #expect(
            try sandbox.rows("feeds/archive.db", "SELECT source FROM feeds ORDER BY source")
                == [[sandbox.path("feeds/a.atom")], [sandbox.path("feeds/b.rss")]])
        // Run again: the archive, now in the directory, is not read as a feed.
        let again = try sandbox.run(["feed", "feeds", "--out", "feeds/archive.db"])
        #expect(again.status == 0, "\(again)")

        // --to json: a directory is a list, even of one feed.
        try sandbox.write("one/only.rss", feedText(threeItems))
        let json = try sandbox.run(["feed", "one", "--to", "json", "--out", "-"])
        #expect(json.status == 0, "\(json)")
        #expect(String(decoding: json.stdout, as: UTF8.self).hasPrefix("["), "\(json)")
    }

    @Test("a directory without feed files is an input error (66) that names it once; the other sources are stored")
    func emptyDirectory() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.rss", feedText(threeItems))
        try sandbox.write("empty/.hidden", "x")
        try FileManager.default.createDirectory(atPath: sandbox.path("empty/sub"), withIntermediateDirectories: true)
        let result = try sandbox.run(["feed", "empty", "good.rss"])
        #expect(result.status == 66, "\(result)")
        #expect(
            result.stderrLines == [
                "ingest: empty: a directory without feed files (hidden files and subdirectories are not read)"
            ],
            "\(result)")
        #expect(try sandbox.rows("feeds.db", "SELECT source FROM feeds") == [[sandbox.path("good.rss")]])
    }

    @Test("--report FILE: each source's outcome, counts and error; the run's status and deciding failure")
    func report() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.rss", feedText(threeItems))
        try sandbox.write("bad.rss", Self.illFormed)
        let result = try sandbox.run(["feed", "good.rss", "gone.rss", "bad.rss", "--report", "run.json"])
        #expect(result.status == 66, "\(result)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: sandbox.contents("run.json")) as? [String: Any])
        #expect(report["ingest"] as? Int == 1)
        #expect(report["arguments"] as? [String] == ["feed", "good.rss", "gone.rss", "bad.rss", "--report", "run.json"])
        #expect(report["exitStatus"] as? Int == 66)
        #expect(report["error"] as? String == "gone.rss: cannot open: No such file or directory")
        #expect(report["output"] as? String == "feeds.db")
        let sources = try #require(report["sources"] as? [[String: Any]])
        #expect(sources.map { $0["source"] as? String } == ["good.rss", "gone.rss", "bad.rss"])
        #expect(sources.map { $0["status"] as? String } == ["archived", "failed", "archived"])
        #expect(sources.map { $0["exitStatus"] as? Int } == [0, 66, 0])
        #expect(
            sources[0]["new"] as? Int == 3 && sources[0]["changed"] as? Int == 0 && sources[0]["unchanged"] as? Int == 0
        )
        #expect(sources[0]["wellFormed"] as? Bool == true && sources[0]["error"] is NSNull)
        #expect(sources[1]["error"] as? String == "cannot open: No such file or directory")
        #expect(sources[2]["wellFormed"] as? Bool == false && sources[2]["firstError"] is String)

        // Again: unchanged; on standard output with -.
        let again = try sandbox.run(["feed", "good.rss", "--report", "-"])
        #expect(again.status == 0, "\(again)")
        let printed = try #require(try JSONSerialization.jsonObject(with: again.stdout) as? [String: Any])
        #expect(printed["exitStatus"] as? Int == 0 && printed["error"] is NSNull)
        let only = try #require((printed["sources"] as? [[String: Any]])?.first)
        #expect(only["unchanged"] as? Int == 3 && only["new"] as? Int == 0)
    }

    @Test("--report: a failed output is the run's error; usage errors for - beside --out -, a source, the output")
    func reportEdges() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.rss", feedText(threeItems))
        try sandbox.write("feeds.json", "[]")
        let exists = try sandbox.run(["feed", "good.rss", "--to", "json", "--report", "run.json"])
        #expect(exists.status == 73, "\(exists)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: sandbox.contents("run.json")) as? [String: Any])
        #expect(report["exitStatus"] as? Int == 73)
        #expect((report["error"] as? String)?.hasPrefix("feeds.json: already exists") == true, "\(report)")
        #expect((report["sources"] as? [Any])?.isEmpty == true)

        for (arguments, message) in [
            (["--to", "json", "--out", "-", "--report", "-"], "--report - and --out - both write standard output"),
            (["--report", "./good.rss"], "--report ./good.rss is also a source (good.rss)"),
            (["--report", "./feeds.db"], "--report ./feeds.db is also the output"),
            (["--report", ""], "--report needs a file name")
        ] {
            let result = try sandbox.run(["feed", "good.rss"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result)")
        }
        #expect(!sandbox.exists("feeds.db"))
    }

    @Test("a file that cannot be read leaves no row in the archive; one archived before has its failure noted")
    func noRowForMissingFile() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.rss", feedText(threeItems))
        try sandbox.write("page.html", "<html><body>not a feed</body></html>")
        let result = try sandbox.run(["feed", "good.rss", "gnoe.rss", "page.html", "-"], stdin: Data())
        #expect(result.status == 66, "\(result)")
        #expect(try sandbox.rows("feeds.db", "SELECT source FROM feeds") == [[sandbox.path("good.rss")]])

        try FileManager.default.removeItem(atPath: sandbox.path("good.rss"))
        let gone = try sandbox.run(["feed", "good.rss"])
        #expect(gone.status == 66, "\(gone)")
        #expect(
            try sandbox.rows("feeds.db", "SELECT source, last_error FROM feeds")
                == [[sandbox.path("good.rss"), "cannot open: No such file or directory"]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
    }

    @Test(
        "-v says how many feeds were not well-formed XML and were read in recovering mode",
        arguments: ["db", "json", "ndjson"])
    func recoveredCount(kind: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.rss", feedText(threeItems))
        try sandbox.write("bad.rss", Self.illFormed)
        try sandbox.write("worse.rss", Self.illFormed.replacingOccurrences(of: "<guid>x", with: "<guid>y"))
        let result = try sandbox.run(["feed", "good.rss", "bad.rss", "worse.rss", "--to", kind, "-v"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderrLines.contains(
                "ingest: 2 of 3 feeds were not well-formed XML and were read in recovering mode"),
            "\(result)")
        #expect(
            result.stderrLines.contains {
                $0.hasPrefix("ingest: bad.rss: ") && $0.contains("(not well-formed XML, read in recovering mode: ")
            },
            "\(result)")
        let one = try sandbox.run(["feed", "bad.rss", "--to", kind, "--out", "one.\(kind)", "-v"])
        #expect(
            one.stderrLines.contains("ingest: 1 of 1 feed was not well-formed XML and was read in recovering mode"),
            "\(one)")
        let quiet = try sandbox.run(["feed", "good.rss", "--to", kind, "--out", "good.\(kind)", "-v"])
        #expect(!quiet.stderr.contains("recovering mode"), "\(quiet)")
    }
}
