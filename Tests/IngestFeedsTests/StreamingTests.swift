import Foundation
import IngestFeeds
import IngestCore
import Testing

@Suite("Streaming: items one at a time, in flat memory")
struct StreamingTests {
    /// An RSS feed of `count` items of about 1 KB each, made as it is read.
    static func generatedRSS(items count: Int) -> GeneratedSource {
        var next = 0
        let filler = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 12)
        return GeneratedSource {
            defer { next += 1 }
            if next == 0 {
                return Array(
                    """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
                    <title>Generated</title><link>https://example.org/</link>\n
                    """.utf8)
            }
            if next > count { return next == count + 1 ? Array("</channel></rss>\n".utf8) : nil }
            return Array(
                """
                <item><title>Item \(next) &amp; more</title><link>https://example.org/\(next)</link>
                <guid isPermaLink="false">id-\(next)</guid><pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate>
                <dc:creator>Writer \(next % 7)</dc:creator><description>\(filler)</description></item>\n
                """.utf8)
        }
    }

    /// Reads 50 000 generated items (about 50 MB) and returns what it saw: the
    /// items, the last guid, the bytes read, and how much the resident memory grew
    /// between the 5 000th item and the last.
    static func readLargeFeed() throws -> (items: Int, lastGUID: String, bytes: Int, growth: Int, header: Feed) {
        let items = 50_000
        let source = generatedRSS(items: items)
        var count = 0
        var lastGUID = ""
        var residentAtStart = 0, residentAtEnd = 0
        let header = try FeedReader().read(source) { item, feed in
            count += 1
            guard feed.title?.value == "Generated" else { throw IngestError(.data, "the header went missing") }
            lastGUID = item.guid ?? ""
            if count == 5_000 { residentAtStart = residentBytes() }
            if count == items { residentAtEnd = residentBytes() }
        }
        return (count, lastGUID, source.produced, residentAtEnd - residentAtStart, header)
    }

    static let childVariable = "INGESTFEEDS_MEMORY_CHILD"

    /// The test binary, to run one test in a process of its own (Linux).
    static var testBinary: String? { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") }

    @Test(
        "50 000 generated items: every one handed over, memory flat (measured in a process of its own)",
        .enabled(
            if: testBinary != nil && ProcessInfo.processInfo.environment[childVariable] == nil,
            "needs /proc/self/exe to run the measurement alone"))
    func largeFeed() throws {
        // Other tests run in parallel in this process and move its resident size:
        // the read runs again, alone, in a child process that prints what it saw.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try #require(Self.testBinary))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "largeFeedAlone"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: "1"]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0, "\(text)")
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("LARGE-FEED ") }, "\(text)")
        let fields = line.split(separator: " ").dropFirst().map { Int($0) ?? -1 }
        try #require(fields.count == 3)
        #expect(fields[0] == 50_000)
        #expect(fields[1] > 45_000_000)
        #expect(fields[2] < 8 << 20, "resident memory grew by \(fields[2] >> 20) MB over 45 000 items")
    }

    @Test(
        "the large read, alone (run by the test above in a child process)",
        .enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil, "runs only as largeFeed's child"))
    func largeFeedAlone() throws {
        let result = try Self.readLargeFeed()
        #expect(result.lastGUID == "id-50000")
        #expect(result.header.items.isEmpty)
        #expect(result.header.link == "https://example.org/")
        print("LARGE-FEED \(result.items) \(result.bytes) \(result.growth)")
    }

    @Test("as an AsyncSequence, with the feed as read so far; a loop may stop early")
    func asyncSequence() async throws {
        var count = 0
        for try await (item, feed) in FeedReader().items(from: Self.generatedRSS(items: 2_000)) {
            count += 1
            #expect(feed.title?.value == "Generated")
            #expect(item.guid == "id-\(count)")
        }
        #expect(count == 2_000)
        var seen = 0
        for try await _ in FeedReader().items(from: Self.generatedRSS(items: 2_000)) {
            seen += 1
            if seen == 10 { break }
        }
        #expect(seen == 10)
    }

    static let sample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
        <channel><title>Zoë's notes</title>
        <item><title>Ünïcödé ✓ 🎉</title><content:encoded><![CDATA[<p>a &amp; b</p>]]></content:encoded></item>
        <item><title>two</title><description>x &lt; y</description></item>
        <lastBuildDate>Thu, 01 Jan 2004 19:48:21 GMT</lastBuildDate>
        </channel></rss>
        """

    @Test(
        "split anywhere: pushing one byte at a time gives what one read gives",
        arguments: [FeedReader.Recovery.never, .always])
    func pushedByteByByte(_ recovery: FeedReader.Recovery) throws {
        let whole = try feed(Self.sample)
        var items: [FeedItem] = []
        let parser = FeedPushParser(options: FeedReader.Options(recovery: recovery)) { item, _ in items.append(item) }
        for byte in Array(Self.sample.utf8) { try parser.feed([byte]) }
        var pushed = try parser.finish()
        pushed.items = items
        #expect(pushed == whole)
        #expect(pushed.items.first?.title?.value == "Ünïcödé ✓ 🎉")
        #expect(pushed.wellFormed)
    }

    @Test("AsyncSequence over a file, with the fallback to recovering mode")
    func asyncFileWithFallback() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-\(UUID().uuidString).rss")
        try Data(
            """
            <rss version="2.0"><channel><title>t</title>
            <item><guid>1</guid></item><item><guid>2</guid><title>A & B</title></item><item><guid>3</guid></item>
            </channel></rss>
            """.utf8
        ).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var guids: [String] = []
        for try await (item, _) in FeedReader(options: FeedReader.Options(chunkSize: 64)).items(contentsOf: url) {
            guids.append(item.guid ?? "?")
        }
        #expect(guids == ["1", "2", "3"])
    }

    @Test("feed-level fields: those before an item come with it; all of them in the result")
    func header() throws {
        var titles: [String?] = []
        var updated: [String?] = []
        let result = try FeedReader().read(data: Data(Self.sample.utf8)) { _, feed in
            titles.append(feed.title?.value)
            updated.append(feed.updated)
        }
        #expect(titles == ["Zoë's notes", "Zoë's notes"])
        #expect(updated == [nil, nil])
        #expect(result.updatedParsed?.rfc3339 == "2004-01-01T19:48:21Z")
    }

    struct Stop: Error, Equatable {}

    @Test("an error thrown by the item closure comes out as it was thrown, and stops the read")
    func closureError() throws {
        var count = 0
        #expect(throws: Stop()) {
            try FeedReader().read(Self.generatedRSS(items: 100)) { _, _ in
                count += 1
                if count == 3 { throw Stop() }
            }
        }
        #expect(count == 3)
    }

    @Test("a text larger than ParseLimits.maxTextBytes is a data error, not a memory blow-up")
    func textLimit() throws {
        var options = FeedReader.Options()
        options.limits = ParseLimits(maxTextBytes: 1_000)
        let big = String(repeating: "x", count: 5_000)
        let error = try #require(throws: IngestError.self) {
            try feed(
                "<rss version=\"2.0\"><channel><item><description>\(big)</description></item></channel></rss>",
                options: options)
        }
        #expect(error.kind == .data)
        #expect(error.message.contains("1000 bytes"))
        #expect(
            try feed(
                "<rss version=\"2.0\"><channel><title>\(big.prefix(900))</title></channel></rss>", options: options
            )
            .title?.value.count == 900)
    }

    @Test("empty input, and a feed with no items")
    func edges() throws {
        #expect(throws: IngestError.self) { try FeedPushParser { _, _ in }.finish() }
        var count = 0
        let parser = FeedPushParser { _, _ in count += 1 }
        try parser.feed(Array(#"{"version":"https://jsonfeed.org/version/1.1","title":"t","items":[]}"#.utf8))
        let parsed = try parser.finish()
        #expect(parsed.format.family == .json)
        #expect(count == 0)
    }
}
