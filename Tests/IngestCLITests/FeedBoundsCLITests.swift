import Foundation
import GRDB
import IngestCore
import IngestFeeds
import Testing

/// Writes a file piece by piece, so a test makes a large input without holding it.
private func writeFile(_ path: String, _ pieces: (FileHandle) throws -> Void) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    try pieces(handle)
}

@Suite("ingest feed: one huge token, and many items to JSON, in bounded memory")
struct FeedBoundsCLITests {
    @Test("an attribute value over 64 MiB in a feed file stops the read at the limit: exit 65, naming it")
    func hugeAttribute() throws {
        let box = try Sandbox()
        try writeFile(box.path("huge.rss")) { file in
            try file.write(
                contentsOf: Data(
                    #"<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><enclosure url=""#.utf8))
            let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<80 { try file.write(contentsOf: block) }
            try file.write(contentsOf: Data(#""/></item></channel></rss>"#.utf8))
        }
        let started = Date()
        let result = try box.run(["feed", "huge.rss", "--to", "ndjson", "--out", "-"])
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr.contains(
                "more than \(ParseLimits.default.maxTextBytes) bytes without a complete tag or text"),
            "\(result)")
        // A backstop only: the read stops once the limit is passed, in one pass.
        #expect(Date().timeIntervalSince(started) < 120)
    }

    @Test(
        "--to json writes the library's pretty text byte for byte: samples, an array, fields after the items, empty items"
    )
    func jsonBytes() throws {
        let box = try Sandbox()
        var paths = ["podcast.rss", "news.atom", "feed.json"].map {
            FeedCLITests.samples.appendingPathComponent($0).path
        }
        paths.append(
            try box.write(
                "late.rss",
                """
                <rss version="2.0"><channel><item><title>One</title></item><item><title>Two</title></item>
                <title>Late title</title><link>https://example.org/</link></channel></rss>
                """))
        paths.append(
            try box.write(
                "empty.rss",
                "<rss version=\"2.0\"><channel>" + String(repeating: "<item/>", count: 30)
                    + "</channel></rss>"))
        paths.append(try box.write("none.rss", "<rss version=\"2.0\"><channel><title>None</title></channel></rss>"))
        let feeds = try paths.map { try Feed(contentsOf: URL(fileURLWithPath: $0)).gofeedJSONValue }
        #expect(try Feed(contentsOf: URL(fileURLWithPath: paths[3])).title?.value == "Late title")
        for (path, feed) in zip(paths, feeds) {
            let result = try box.run(["feed", path, "--to", "json", "--out", "-"])
            #expect(result.status == 0, "\(result)")
            #expect(String(decoding: result.stdout, as: UTF8.self) == feed.prettyText() + "\n", "\(path)")
        }
        let result = try box.run(["feed"] + paths + ["--to", "json", "--out", "all.json"])
        #expect(result.status == 0, "\(result)")
        #expect(
            String(decoding: try box.contents("all.json"), as: UTF8.self) == JSONValue.array(feeds).prettyText() + "\n")
        #expect(try box.temporaryLeftovers() == [])
        #expect(try box.listing().filter { $0.contains("json-items") } == [])
    }

    @Test(
        "--to json of 200,000 items streams them: peak memory stays flat, the output has every item",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time measures peak memory"))
    func jsonManyItems() throws {
        let box = try Sandbox()
        let count = 200_000
        try writeFile(box.path("many.rss")) { file in
            try file.write(
                contentsOf: Data(#"<?xml version="1.0"?><rss version="2.0"><channel><title>Many</title>"#.utf8))
            var batch = ""
            for index in 0..<count {
                batch +=
                    "<item><guid>g\(index)</guid><title>Item \(index)</title><link>https://example.org/\(index)</link></item>\n"
                if index % 10_000 == 9_999 {
                    try file.write(contentsOf: Data(batch.utf8))
                    batch = ""
                }
            }
            try file.write(contentsOf: Data((batch + "<link>https://example.org/</link></channel></rss>").utf8))
        }
        let binary = try Locations.requireIngest()
        let result = try box.run(
            ["-f", "%M", binary.path, "feed", "many.rss", "--to", "json", "--out", "many.json"],
            executable: URL(fileURLWithPath: "/usr/bin/time"))
        #expect(result.status == 0, "\(result)")
        let peakKB = try #require(
            result.stderrLines.last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }, "\(result)")
        #expect(peakKB < 100 << 10, "peak \(peakKB) KB for \(count) items")
        let written = try JSONSerialization.jsonObject(with: try box.contents("many.json")) as? [String: Any]
        let items = try #require(written?["items"] as? [[String: Any]])
        #expect(items.count == count)
        #expect(items.last?["guid"] as? String == "g\(count - 1)")
        #expect(written?["link"] as? String == "https://example.org/")
    }

    @Test("relative links against a long xml:base: 65 naming the amplification, the other source archived, no trap")
    func linkAmplification() throws {
        let box = try Sandbox()
        let base = "http://example.com/" + String(repeating: "a/", count: 100_000)
        let links = String(repeating: "&lt;img src=&quot;x&quot;&gt;", count: 40_000)
        try box.write(
            "amp.rss",
            #"<rss version="2.0"><channel xml:base="\#(base)"><title>t</title><item><guid>1</guid><description>\#(links)</description></item></channel></rss>"#
        )
        try box.write(
            "ok.rss", #"<rss version="2.0"><channel><title>ok</title><item><guid>2</guid></item></channel></rss>"#)
        let started = Date()
        let result = try box.run(["feed", "amp.rss", "ok.rss", "--out", "feeds.db"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("amp.rss:1:"), "\(result.stderr)")
        #expect(result.stderr.contains("refused as an amplification"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 60, "refused before the item grew")
        let items = try DatabaseQueue(path: box.path("feeds.db")).read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM items")
        }
        #expect(items == 1, "only ok.rss's item")
    }
}
