import Foundation
import IngestCore
import IngestFeeds
import Testing

/// A small RSS feed of `items`: (guid, title, description).
func feedText(_ items: [(String, String, String)], title: String = "Test feed") -> String {
    var text = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>"#
    text += "<title>\(title)</title><link>https://example.org/</link>"
    for (guid, itemTitle, description) in items {
        text += "<item><guid>\(guid)</guid><title>\(itemTitle)</title><link>https://example.org/\(guid)</link>"
        text += "<description>\(description)</description><pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate>"
        text += #"<enclosure url="https://example.org/\#(guid).mp3" length="100" type="audio/mpeg"/></item>"#
    }
    return text + "</channel></rss>"
}

let threeItems = [("a", "Alpha", "one"), ("b", "Beta", "two"), ("c", "Gamma", "three")]

/// The tables of a feed archive, sorted.
let archiveTables = [
    "alternate_enclosures", "authors", "categories", "chapters", "enclosures", "feeds", "funding", "items",
    "persons", "show_funding", "show_persons", "soundbites", "transcripts"
]

/// Every row of the archive's tables, but the fetch times: what a re-run must not change.
func archiveDump(_ sandbox: Sandbox, _ database: String = "feeds.db") throws -> [[String?]] {
    try sandbox.rows(
        database, "SELECT id, source, url, title, etag, last_modified, last_status, last_error FROM feeds ORDER BY id")
        + sandbox.rows(
            database,
            "SELECT id, feed_id, guid, title, summary, content_hash, first_seen, last_changed FROM items ORDER BY id")
        + sandbox.rows(database, "SELECT * FROM enclosures ORDER BY item_id, url")
        + sandbox.rows(database, "SELECT * FROM categories ORDER BY item_id, name")
        + sandbox.rows(database, "SELECT * FROM authors ORDER BY item_id, name, email")
}

@Suite("ingest feed: files and standard input into the archive, JSON and NDJSON")
struct FeedCLITests {
    static let samples = Locations.packageRoot.appendingPathComponent("Samples")

    @Test("ingest feed Samples/podcast.rss: feeds.db with feeds, items, enclosures")
    func samplePodcast() throws {
        let sandbox = try Sandbox()
        let podcast = Self.samples.appendingPathComponent("podcast.rss").path
        let result = try sandbox.run(["feed", podcast, "-v"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.tables("feeds.db") == archiveTables)
        #expect(
            try sandbox.rows("feeds.db", "SELECT source, title, type, version FROM feeds")
                == [[podcast, "Low Tide Radio", "rss", "2.0"]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM enclosures") == [["3"]])
        #expect(
            result.stderrLines.last?.hasPrefix("ingest: 1 source: 3 new, 0 changed, 0 unchanged items; feeds.db in ")
                == true,
            "\(result)")
    }

    @Test("re-runs: the same rows; one item changed is 1 changed; one added is 1 new")
    func reRuns() throws {
        let sandbox = try Sandbox()
        try sandbox.write("news.rss", feedText(threeItems))
        #expect(try sandbox.run(["feed", "news.rss"]).status == 0)
        let first = try archiveDump(sandbox)

        let again = try sandbox.run(["feed", "news.rss", "-v"])
        #expect(again.status == 0)
        #expect(again.stderrLines.contains { $0.hasSuffix("news.rss: 0 new, 0 changed, 3 unchanged") }, "\(again)")
        #expect(try archiveDump(sandbox) == first)

        var edited = threeItems
        edited[1].2 = "two, revised"
        try sandbox.write("news.rss", feedText(edited))
        let changed = try sandbox.run(["feed", "news.rss", "-v"])
        #expect(changed.stderrLines.contains { $0.hasSuffix("news.rss: 0 new, 1 changed, 2 unchanged") }, "\(changed)")
        #expect(try sandbox.rows("feeds.db", "SELECT summary FROM items WHERE guid = 'b'") == [["two, revised"]])

        try sandbox.write("news.rss", feedText(edited + [("d", "Delta", "four")]))
        let added = try sandbox.run(["feed", "news.rss", "-v"])
        #expect(added.stderrLines.contains { $0.hasSuffix("news.rss: 1 new, 0 changed, 3 unchanged") }, "\(added)")
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["4"]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM feeds") == [["1"]])
    }

    @Test("the same file named from another directory is the same feed")
    func absoluteNames() throws {
        let sandbox = try Sandbox()
        try sandbox.write("dir/news.rss", feedText(threeItems))
        #expect(try sandbox.run(["feed", "dir/news.rss", "--out", "a.db"]).status == 0)
        #expect(try sandbox.run(["feed", sandbox.path("dir/news.rss"), "--out", "a.db"]).status == 0)
        #expect(try sandbox.rows("a.db", "SELECT count(*) FROM feeds") == [["1"]])
    }

    @Test("--to json: each format is the library's gofeed JSON", arguments: ["podcast.rss", "news.atom", "feed.json"])
    func jsonEqualsLibrary(sample: String) throws {
        let sandbox = try Sandbox()
        let url = Self.samples.appendingPathComponent(sample)
        let result = try sandbox.run(["feed", url.path, "--to", "json", "--out", "-"])
        #expect(result.status == 0, "\(result)")
        let printed = try JSONValue(parsing: String(decoding: result.stdout, as: UTF8.self))
        #expect(printed == (try Feed(contentsOf: url)).gofeedJSONValue)
    }

    @Test("--to json with several sources: an array, in the order given; the file is written atomically")
    func jsonArray() throws {
        let sandbox = try Sandbox()
        let names = ["feed.json", "podcast.rss"]
        let paths = names.map { Self.samples.appendingPathComponent($0).path }
        let result = try sandbox.run(["feed"] + paths + ["--to", "json"])
        #expect(result.status == 0, "\(result)")
        let written = try JSONValue(parsing: String(decoding: try sandbox.contents("feeds.json"), as: UTF8.self))
        let expected = JSONValue.array(try paths.map { try Feed(contentsOf: URL(fileURLWithPath: $0)).gofeedJSONValue })
        #expect(written == expected)
        // An existing output is refused without --replace.
        let again = try sandbox.run(["feed"] + paths + ["--to", "json"])
        #expect(again.status == 73, "\(again)")
        #expect(try sandbox.run(["feed"] + paths + ["--to", "json", "--replace"]).status == 0)
    }

    @Test("--to ndjson: one item a line with its feed's address")
    func ndjson() throws {
        let sandbox = try Sandbox()
        let podcast = Self.samples.appendingPathComponent("podcast.rss").path
        let atom = Self.samples.appendingPathComponent("news.atom").path
        let result = try sandbox.run(["feed", podcast, atom, "--to", "ndjson", "--out", "items.ndjson"])
        #expect(result.status == 0, "\(result)")
        let lines = String(decoding: try sandbox.contents("items.ndjson"), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 5)
        let values = try lines.map { try JSONValue(parsing: String($0)) }
        let feeds = values.compactMap { value -> String? in
            guard case .object(let members) = value, case .string(let url)? = members.first?.1,
                members.first?.0 == "feedUrl"
            else { return nil }
            return url
        }
        #expect(feeds == [podcast, podcast, podcast, atom, atom])
        let items = try Feed(contentsOf: URL(fileURLWithPath: podcast)).items
        guard case .object(let members) = values[0] else {
            Issue.record("not an object")
            return
        }
        #expect(JSONValue.object(Array(members.dropFirst())) == items[0].gofeedJSONValue)
    }

    @Test("standard input, named stdin: and the feed's own address")
    func standardInput() throws {
        let sandbox = try Sandbox()
        let atom = try Data(contentsOf: Self.samples.appendingPathComponent("news.atom"))
        #expect(try sandbox.run(["feed", "-"], stdin: atom).status == 0)
        #expect(try sandbox.run(["feed", "-"], stdin: atom).status == 0)
        let feeds = try sandbox.rows("feeds.db", "SELECT source, type, feed_link FROM feeds")
        #expect(feeds.count == 1)
        #expect(feeds.first?[0] == feeds.first?[2].map { "stdin:" + $0 })
        #expect(feeds.first?[1] == "atom")
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["2"]])
    }

    @Test("a missing file (66) and a file that is no feed (65) are reported, with no row; the others are stored")
    func failingFiles() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.rss", feedText(threeItems))
        try sandbox.write("page.html", "<html><body>not a feed</body></html>")
        let missing = try sandbox.run(["feed", "good.rss", "gone.rss"])
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.stderr.contains("gone.rss"))
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM feeds WHERE source LIKE '%gone.rss'") == [["0"]])
        let html = try sandbox.run(["feed", "page.html", "good.rss"])
        #expect(html.status == 65, "\(html)")
        #expect(html.stderr.contains("not a feed"))
    }

    @Test(
        "sizes no Int64 holds (1e19, 1e400), -5 and \"abc\" in a JSON Feed: left out, and the next source is archived")
    func outOfRangeSizes() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "a.json",
            """
            {"version": "https://jsonfeed.org/version/1.1", "title": "Sizes", "items": [{"id": "1", "title": "One",
             "attachments": [{"url": "https://example.net/1.mp3", "size_in_bytes": 1e19},
                             {"url": "https://example.net/2.mp3", "size_in_bytes": 1e400},
                             {"url": "https://example.net/3.mp3", "size_in_bytes": -5},
                             {"url": "https://example.net/4.mp3", "size_in_bytes": "abc"},
                             {"url": "https://example.net/5.mp3", "size_in_bytes": 1234}]}]}
            """)
        try sandbox.write("b.rss", feedText(threeItems))
        let result = try sandbox.run(["feed", "a.json", "b.rss", "--out", "x.db"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.rows("x.db", "SELECT title FROM feeds ORDER BY title") == [["Sizes"], ["Test feed"]])
        #expect(
            try sandbox.rows(
                "x.db", "SELECT url, length FROM enclosures WHERE url LIKE 'https://example.net/%' ORDER BY url")
                == [
                    ["https://example.net/1.mp3", nil], ["https://example.net/2.mp3", nil],
                    ["https://example.net/3.mp3", nil],
                    ["https://example.net/4.mp3", nil], ["https://example.net/5.mp3", "1234"]
                ])
        #expect(try sandbox.rows("x.db", "SELECT count(*) FROM items") == [["4"]])
    }

    @Test("an ill-formed feed is read in recovering mode and marked", arguments: [false, true])
    func illFormed(throughStandardInput: Bool) throws {
        let sandbox = try Sandbox()
        let text =
            #"<rss version="2.0"><channel><title>Fish & Chips</title><item><guid>x</guid><title>An &nbsp; item</title></item></channel></rss>"#
        let result =
            throughStandardInput
            ? try sandbox.run(["feed", "-"], stdin: Data(text.utf8))
            : try sandbox.run(["feed", try sandbox.write("bad.rss", text)])
        #expect(result.status == 0, "\(result)")
        #expect(
            try sandbox.rows("feeds.db", "SELECT title, well_formed, first_error IS NOT NULL FROM feeds")
                == [["Fish & Chips", "0", "1"]])
        #expect(try sandbox.rows("feeds.db", "SELECT count(*) FROM items") == [["1"]])
    }

    @Test(
        "a feed in a multi-byte encoding with bytes it does not define: each is U+FFFD, the feed archived and marked",
        arguments: ["Shift_JIS", "EUC-KR"])
    func undefinedMultiByte(encoding: String) throws {
        let sandbox = try Sandbox()
        // あ in Shift_JIS, 가 in EUC-KR; 0xA0 and 0xFF start no sequence in either.
        let (character, bytes, undefined): (String, [UInt8], UInt8) =
            encoding == "Shift_JIS" ? ("あ", [0x82, 0xA0], 0xA0) : ("가", [0xB0, 0xA1], 0xFF)
        let document =
            Array(#"<?xml version="1.0" encoding="\#(encoding)"?><rss version="2.0"><channel><title>"#.utf8)
            + bytes + [0x20, undefined, 0x20] + bytes
            + Array("</title><item><guid>1</guid><title>".utf8) + bytes
            + Array("</title></item></channel></rss>".utf8)
        let result = try sandbox.run(["feed", try sandbox.write("legacy.rss", Data(document))])
        #expect(result.status == 0, "\(result)")
        #expect(
            try sandbox.rows("feeds.db", "SELECT title, well_formed, first_error LIKE '1:%' FROM feeds")
                == [["\(character) \u{FFFD} \(character)", "0", "1"]])
        #expect(try sandbox.rows("feeds.db", "SELECT title FROM items") == [[character]])
    }

    @Test(
        "the summary line: on a terminal, or with -v; nothing on standard error off a terminal; -q on a terminal silences it"
    )
    func summaryOnlyWhereAsked() throws {
        let sandbox = try Sandbox()
        try sandbox.write("news.rss", feedText(threeItems))
        let quietPipe = try sandbox.run(["feed", "news.rss"])
        #expect(quietPipe.status == 0)
        #expect(quietPipe.stderr.isEmpty, "\(quietPipe)")
        let terminal = try sandbox.runOnTerminal(["feed", "news.rss"], columns: 100)
        #expect(terminal.status == 0)
        #expect(
            terminal.lines.last?.hasPrefix("ingest: 1 source: 0 new, 0 changed, 3 unchanged items; feeds.db in ")
                == true,
            "\(terminal.lines)")
        let silenced = try sandbox.runOnTerminal(["feed", "news.rss", "-q"], columns: 100)
        #expect(silenced.status == 0)
        #expect(silenced.lines.isEmpty, "\(silenced.lines)")
    }

    @Test("usage errors: a scheme ingest does not read, --to db to standard output, --jobs 0")
    func usage() throws {
        let sandbox = try Sandbox()
        for arguments in [
            ["feed", "ftp://example.org/feed.xml"], ["feed", "x.rss", "--out", "-"], ["feed", "x.rss", "--jobs", "0"],
            ["feed", "x.rss", "--replace"], ["feed"], ["feed", "-", "-"]
        ] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
        #expect(!sandbox.exists("feeds.db"))
    }
}
