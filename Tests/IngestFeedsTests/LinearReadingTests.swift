import Foundation
@testable import IngestFeeds
import IngestCore
import Testing

/// Inputs made of one long run — white space before the document, one huge tag —
/// pushed in small chunks: each byte is looked at once, and the run is bounded by
/// ``ParseLimits/maxTextBytes`` on every path, strict and recovering.
@Suite("Linear reading: long runs in small chunks")
struct LinearReadingTests {
    static let limit = 1 << 20
    static var options: FeedReader.Options {
        var options = FeedReader.Options()
        options.limits = ParseLimits(maxTextBytes: limit)
        return options
    }

    /// Pushes `prefix` in `chunk`-byte pieces, then `rest`, into a fresh parser.
    static func push(_ prefix: [UInt8], chunk: Int, then rest: String, options: FeedReader.Options) throws -> Feed {
        let parser = FeedPushParser(options: options) { _, _ in }
        var start = 0
        while start < prefix.count {
            try parser.feed(prefix[start..<min(start + chunk, prefix.count)])
            start += chunk
        }
        try parser.feed(Array(rest.utf8))
        return try parser.finish()
    }

    @Test("the sniffer looks at each byte of leading white space once, however it is cut")
    func snifferScansOnce() throws {
        var sniffer = FeedSniffer(maxWhiteSpace: 1 << 30)
        let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)
        for _ in 0..<10_000 {
            let verdict = try spaces.withUnsafeBytes { try sniffer.add($0, final: false) }
            #expect(verdict == nil)
        }
        let verdict = try Array("\n<?xml version=\"1.0\"?><rss/>".utf8).withUnsafeBytes {
            try sniffer.add($0, final: false)
        }
        #expect(verdict?.syntax == .xml)
        #expect(verdict?.whiteSpaceBeforeDeclaration == 0..<640_001)
        #expect(sniffer.bytesExamined == 640_001)
    }

    @Test(
        "white space before the document past the limit is refused as a token is, on the way in",
        arguments: [FeedReader.Recovery.never, .always])
    func whiteSpaceBounded(recovery: FeedReader.Recovery) throws {
        var options = Self.options
        options.recovery = recovery
        let spaces = [UInt8](repeating: UInt8(ascii: "\n"), count: Self.limit + 4096)
        let error = try #require(throws: IngestError.self) {
            try Self.push(spaces, chunk: 512, then: "<rss version=\"2.0\"><channel/></rss>", options: options)
        }
        #expect(error.kind == .data)
        #expect(
            error.message.contains("more than \(Self.limit) bytes without a complete tag or text: white space"),
            "\(error)")
        // Under the limit, the feed is read.
        let read = try Self.push(
            Array(spaces.prefix(Self.limit / 2)), chunk: 512,
            then: "<rss version=\"2.0\"><channel><title>T</title></channel></rss>", options: options)
        #expect(read.title?.value == "T")
    }

    @Test(
        "an attribute value past the limit stops the read at the limit, strict or recovering, pushed or read",
        arguments: [FeedReader.Recovery.never, .fallback, .always])
    func attributeBounded(recovery: FeedReader.Recovery) throws {
        var options = Self.options
        options.recovery = recovery
        let value = String(repeating: "v", count: 3 * Self.limit)
        let text = "<rss version=\"2.0\"><channel><item><enclosure url=\"\(value)\"/></item></channel></rss>"
        let read = try #require(throws: IngestError.self) {
            try FeedReader(options: options).read(data: Data(text.utf8)) { _, _ in }
        }
        #expect(read.message.contains("more than \(Self.limit) bytes without a complete tag or text"), "\(read)")
        guard recovery != .fallback else { return }
        let pushed = try #require(throws: IngestError.self) {
            try Self.push(Array(text.utf8), chunk: 1000, then: "", options: options)
        }
        #expect(pushed.message.contains("more than \(Self.limit) bytes without a complete tag or text"), "\(pushed)")
    }

    @Test(
        "a comment past the limit stops the read at the limit, strict or recovering",
        arguments: [FeedReader.Recovery.never, .always])
    func commentBounded(recovery: FeedReader.Recovery) throws {
        var options = Self.options
        options.recovery = recovery
        let comment =
            "<rss version=\"2.0\"><channel><!--" + String(repeating: "c", count: 3 * Self.limit) + "--></channel></rss>"
        let error = try #require(throws: IngestError.self) {
            try Self.push(Array(comment.utf8), chunk: 1000, then: "", options: options)
        }
        #expect(error.message.contains("more than \(Self.limit) bytes without a complete tag or text"), "\(error)")
        #expect(error.message.contains("comment"), "\(error)")
    }

    /// Pushes a feed whose one enclosure URL is `valueBytes` long, in 4 KiB chunks;
    /// returns the URL's length as read and how long the pushes took.
    static func pushLongTag(valueBytes: Int) throws -> (read: Int?, took: Duration) {
        var options = FeedReader.Options()
        options.limits = ParseLimits(maxTextBytes: 32 << 20)
        var read: Int?
        let parser = FeedPushParser(options: options) { item, _ in read = item.enclosures.first?.url?.utf8.count }
        try parser.feed(Array("<rss version=\"2.0\"><channel><item><enclosure url=\"".utf8))
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        let started = ContinuousClock.now
        for _ in 0..<valueBytes / chunk.count { try parser.feed(chunk) }
        try parser.feed(Array("\"/></item></channel></rss>".utf8))
        _ = try parser.finish()
        return (read, ContinuousClock.now - started)
    }

    @Test("a long tag pushed in small chunks is held without being copied again at each one")
    func longTagPushed() throws {
        // Four times the bytes take about four times as long when each is handled once,
        // and sixteen times when the held tag is copied at every chunk. A ratio, not a
        // deadline: a slow machine or a sanitizer slows both alike. Best of three.
        func fastest(_ valueBytes: Int) throws -> Duration {
            var best = Duration.seconds(Int64.max)
            for _ in 0..<3 {
                let (read, took) = try Self.pushLongTag(valueBytes: valueBytes)
                #expect(read == valueBytes)
                best = min(best, took)
            }
            return best
        }
        let small = try fastest(2 << 20)
        let large = try fastest(8 << 20)
        #expect(large / small < 10, "2 MiB: \(small), 8 MiB: \(large)")
    }

    @Test("a value past libxml2's 10 MB limit is an error, never a recovered feed")
    func longTagPastLibXML2Limit() throws {
        let error = try #require(throws: IngestError.self) { try Self.pushLongTag(valueBytes: 12 << 20) }
        #expect(error.reason == .libxml2Limit, "\(error)")
    }

    @Test("the repair filter scans a tag cut in many chunks once, and repairs it as if whole")
    func repairFilterScansOnce() throws {
        let value = String(repeating: "a&b ", count: 100_000)
        let text = Array("<item><link href=\"\(value)\" rel='x>y'>text &nbsp;</link></item>".utf8)
        var whole = XMLRepairFilter(maxTokenBytes: Self.limit)
        var expected: [UInt8] = []
        try text.withUnsafeBytes { try whole.repair($0, final: true, into: &expected) }

        var cut = XMLRepairFilter(maxTokenBytes: Self.limit)
        var output: [UInt8] = []
        for start in stride(from: 0, to: text.count, by: 100) {
            try text[start..<min(start + 100, text.count)].withUnsafeBytes {
                try cut.repair($0, final: false, into: &output)
            }
        }
        try [UInt8]().withUnsafeBytes { try cut.repair($0, final: true, into: &output) }
        #expect(output == expected)
        #expect(cut.tagBytesExamined <= text.count)
        #expect(cut.firstRepair == whole.firstRepair)
    }

    @Test("the repair filter refuses a tag longer than its bound, once it is that long")
    func repairFilterBounded() throws {
        var filter = XMLRepairFilter(maxTokenBytes: 10_000)
        var output: [UInt8] = []
        try Array("<rss><channel><item><link href=\"".utf8).withUnsafeBytes {
            try filter.repair($0, final: false, into: &output)
        }
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
        var pushed = 0
        let error = try #require(throws: IngestError.self) {
            while pushed < 20_000 {
                try chunk.withUnsafeBytes { try filter.repair($0, final: false, into: &output) }
                pushed += chunk.count
            }
        }
        #expect(error.message.contains("more than 10000 bytes without a complete tag or text: a tag"), "\(error)")
        #expect(pushed <= 10_000)
    }
}
