import Foundation
@testable import IngestFeeds
import IngestCore
import IngestParsers
import Testing

@Suite("Encodings: what the parsers read, and an HTTP charset over the declaration (RFC 7303)")
struct EncodingTests {
    /// `é` is 0xE9 in ISO-8859-1 and windows-1252; `’` is 0x92 in windows-1252.
    static func latin1Feed(declaring encoding: String?) -> Data {
        var bytes = Array((encoding.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>" } ?? "").utf8)
        bytes +=
            Array(#"<rss version="2.0"><channel><title>Caf"#.utf8) + [0xE9, 0x20, 0x92, 0x73]
            + Array("</title></channel></rss>".utf8)
        return Data(bytes)
    }

    @Test("a declared single-byte encoding is read (Expat through iconv)")
    func declared() throws {
        let parsed = try Feed(data: Self.latin1Feed(declaring: "windows-1252"))
        #expect(parsed.title?.value == "Café \u{2019}s")
        #expect(parsed.wellFormed)
    }

    @Test("the HTTP charset overrides the declaration", arguments: [FeedReader.Recovery.fallback, .always])
    func charsetOverrides(_ recovery: FeedReader.Recovery) throws {
        // Declared UTF-8 (wrongly); the server says windows-1252.
        let parsed = try Feed(
            data: Self.latin1Feed(declaring: "UTF-8"),
            options: FeedReader.Options(charset: "\"Windows-1252\"", recovery: recovery))
        #expect(parsed.title?.value == "Café \u{2019}s")
        // Declared windows-1252 but the bytes are UTF-8, as the server says.
        let utf8 = Data(
            #"<?xml version="1.0" encoding="windows-1252"?><rss version="2.0"><channel><title>Zoë</title></channel></rss>"#
                .utf8)
        #expect(
            try Feed(data: utf8, options: FeedReader.Options(charset: "utf-8", recovery: recovery)).title?.value
                == "Zoë")
    }

    @Test("a byte order mark wins over the charset (RFC 7303 section 3.3)")
    func byteOrderMark() throws {
        let text = #"<rss version="2.0"><channel><title>Zoë</title></channel></rss>"#
        let utf8 = Data([0xEF, 0xBB, 0xBF] + Array(text.utf8))
        #expect(try Feed(data: utf8, options: FeedReader.Options(charset: "iso-8859-1")).title?.value == "Zoë")
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(text.data(using: .utf16LittleEndian)!)
        #expect(try Feed(data: utf16).title?.value == "Zoë")
        #expect(try Feed(data: utf16, options: FeedReader.Options(charset: "iso-8859-1")).title?.value == "Zoë")
    }

    @Test("white space before the XML declaration (PHP's blank line) is allowed")
    func leadingWhiteSpace() throws {
        let parsed = try feed(
            "\n\n  <?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>t</title></channel></rss>"
        )
        #expect(parsed.title?.value == "t")
        #expect(parsed.wellFormed)
    }

    @Test("an unknown charset is a data error that names it")
    func unknownCharset() throws {
        let error = try #require(throws: IngestError.self) {
            try Feed(data: Self.latin1Feed(declaring: nil), options: FeedReader.Options(charset: "x-no-such-charset"))
        }
        #expect(error.kind == .data)
        #expect(error.message.contains("x-no-such-charset"))
    }

    @Test("an unknown declared encoding is a data error that names it, with its position")
    func unknownDeclaredEncoding() throws {
        let xml =
            #"<?xml version="1.0" encoding="x-bogus-enc"?>"# + "\n"
            + #"<rss version="2.0"><channel><title>t</title></channel></rss>"#
        let error = try #require(throws: IngestError.self) { try Feed(data: Data(xml.utf8)) }
        #expect(error.kind == .data)
        #expect(error.message.hasPrefix("not a feed: ") && error.message.contains("x-bogus-enc"), "\(error)")
        #expect(error.position?.line == 1, "\(error)")
    }

    @Test(
        "ISO-8859-1 and US-ASCII are read as windows-1252, as browsers and feedparser read them",
        arguments: ["ISO-8859-1", "latin1", "us-ascii", " iso_8859-1 "], [FeedReader.Recovery.fallback, .always])
    func latin1IsWindows1252(label: String, recovery: FeedReader.Recovery) throws {
        let declared = try Feed(
            data: Self.latin1Feed(declaring: label), options: FeedReader.Options(recovery: recovery))
        #expect(declared.title?.value == "Café \u{2019}s", "0x92 is the right single quote, not a C1 control")
        let served = try Feed(
            data: Self.latin1Feed(declaring: nil), options: FeedReader.Options(charset: label, recovery: recovery))
        #expect(served.title?.value == "Café \u{2019}s")
    }

    @Test(
        "a declaration's encoding, read before the parser is chosen",
        arguments: [
            (#"<?xml version="1.0" encoding="ISO-8859-1"?><rss/>"#, "ISO-8859-1"),
            ("<?xml version='1.0' encoding = 'latin1' standalone='yes'?>", "latin1"),
            ("<?xml\tversion=\"1.0\"\nencoding=\"us-ascii\"?>", "us-ascii"),
            (#"<?xml version="1.0"?><rss encoding="latin1"/>"#, nil),
            (#"<?xml version="1.0" encoding="latin1""#, nil),
            (#"<?xml version="1.0" myencoding="latin1"?>"#, nil),
            (#"<?xmlfoo encoding="latin1"?>"#, nil),
            (#"<rss encoding="latin1"/>"#, nil)
        ] as [(String, String?)])
    func declaredEncoding(text: String, encoding: String?) {
        #expect(XMLDeclaration.encoding(in: Array(text.utf8)) == encoding)
    }

    @Test(
        "a byte the declared single-byte encoding does not define is read as U+FFFD, the feed marked not well-formed",
        arguments: [FeedReader.Recovery.fallback, .always], [true, false])
    func undefinedByteReplaced(recovery: FeedReader.Recovery, declared: Bool) throws {
        // 0xAA is undefined in windows-1253; 0xE1 is α.
        let declaration = declared ? #"<?xml version="1.0" encoding="windows-1253"?>"# : ""
        let bytes =
            Array((declaration + #"<rss version="2.0"><channel><title>"#).utf8) + [0xE1, 0x20, 0xAA, 0x20, 0xE1]
            + Array("</title><item><title>one</title></item></channel></rss>".utf8)
        let feed = try Feed(
            data: Data(bytes),
            options: FeedReader.Options(charset: declared ? nil : "windows-1253", recovery: recovery))
        #expect(feed.title?.value == "α \u{FFFD} α")
        #expect(feed.items.map(\.title?.value) == ["one"])
        #expect(!feed.wellFormed)
        #expect(feed.firstError != nil)
    }
}

/// Legacy encodings, multi-byte ones above all, whose bytes do not all decode: read as browsers
/// read them, each bad byte a U+FFFD, the rest of the feed kept.
@Suite("Encodings: undefined bytes of a multi-byte encoding")
struct MultiByteReplacementTests {
    /// A label, a character it encodes (and its bytes), and bytes it does not define.
    struct Case: CustomStringConvertible, Sendable {
        var label: String
        var character: String
        var bytes: [UInt8]
        var undefined: [UInt8]
        var description: String { label }
    }

    static let cases: [Case] = [
        Case(label: "Shift_JIS", character: "あ", bytes: [0x82, 0xA0], undefined: [0xA0]),
        Case(label: "sjis", character: "あ", bytes: [0x82, 0xA0], undefined: [0xFD]),
        Case(label: "euc-kr", character: "가", bytes: [0xB0, 0xA1], undefined: [0xFF]),
        Case(label: "ks_c_5601-1987", character: "가", bytes: [0xB0, 0xA1], undefined: [0xFF]),
        Case(label: "Big5", character: "中", bytes: [0xA4, 0xA4], undefined: [0xFF]),
        Case(label: "EUC-JP", character: "あ", bytes: [0xA4, 0xA2], undefined: [0xFF]),
        Case(label: "gb2312", character: "啊", bytes: [0xB0, 0xA1], undefined: [0xFF]),
        Case(label: "GB18030", character: "啊", bytes: [0xB0, 0xA1], undefined: [0x80]),
        // tis-620 is read as windows-874, a single-byte encoding with holes (0xDB).
        Case(label: "tis-620", character: "ก", bytes: [0xA1], undefined: [0xDB])
    ]

    /// The title holds the character, the undefined bytes, and the character again.
    static func document(_ testCase: Case) -> [UInt8] {
        Array(#"<?xml version="1.0" encoding="\#(testCase.label)"?><rss version="2.0"><channel><title>"#.utf8)
            + testCase.bytes + [0x20] + testCase.undefined + [0x20] + testCase.bytes
            + Array("</title><item><title>one</title></item><item><title>".utf8) + testCase.bytes
            + Array("</title></item></channel></rss>".utf8)
    }

    @Test(
        "each undefined byte is U+FFFD, the rest of the feed is read, and the feed is marked not well-formed",
        arguments: cases, [FeedReader.Recovery.fallback, .always])
    func replaced(_ testCase: Case, recovery: FeedReader.Recovery) throws {
        let feed = try Feed(data: Data(Self.document(testCase)), options: FeedReader.Options(recovery: recovery))
        let expected =
            "\(testCase.character) \(String(repeating: "\u{FFFD}", count: testCase.undefined.count)) \(testCase.character)"
        #expect(feed.title?.value == expected)
        #expect(feed.items.map(\.title?.value) == ["one", testCase.character])
        #expect(!feed.wellFormed)
        #expect(feed.firstError != nil)
    }

    @Test("the same characters when the bytes come one at a time, sequences cut between chunks", arguments: cases)
    func oneByteAtATime(_ testCase: Case) throws {
        var titles: [String?] = []
        let parser = FeedPushParser(options: FeedReader.Options(recovery: .always)) { item, _ in
            titles.append(item.title?.value)
        }
        for byte in Self.document(testCase) { try parser.feed([byte]) }
        let feed = try parser.finish()
        let expected =
            "\(testCase.character) \(String(repeating: "\u{FFFD}", count: testCase.undefined.count)) \(testCase.character)"
        #expect(feed.title?.value == expected)
        #expect(titles == ["one", testCase.character])
        #expect(!feed.wellFormed)
    }

    @Test("a sequence the document's end cuts off is one U+FFFD, not lost")
    func cutAtTheEnd() {
        let decoder = ReplacingDecoder(label: "shift_jis")!
        var output: [UInt8] = []
        [UInt8]([0x41, 0x82]).withUnsafeBytes { decoder.decode($0, into: &output) }
        #expect(output == [0x41])
        decoder.finish(into: &output)
        #expect(String(decoding: output, as: UTF8.self) == "A\u{FFFD}")
        #expect(decoder.replacements == 1)
    }

    @Test("the Unicode encodings and unknown names have no decoder here: the parsers read those")
    func noDecoder() {
        for label in ["UTF-8", "utf-16le", "UCS-2", "ISO-10646-UCS-2", "x-no-such-charset", "", "a/b"] {
            #expect(ReplacingDecoder(label: label) == nil, "\(label)")
        }
        #expect(ReplacingDecoder(label: "windows-1253") != nil)
        #expect(ReplacingDecoder(label: "ISO-2022-JP") != nil)
    }
}

@Suite("Encodings: a declaration cut between chunks")
struct CutDeclarationTests {
    @Test(
        "the declared encoding is found when the bytes come one at a time, white space before it or not",
        arguments: ["", "\n  "], [FeedReader.Recovery.fallback, .always])
    func oneByteAtATime(leading: String, recovery: FeedReader.Recovery) throws {
        // ISO-8859-1 is read as windows-1252 (0x92 is ’) only when the declaration is seen.
        let bytes = Array(leading.utf8) + Array(EncodingTests.latin1Feed(declaring: "ISO-8859-1"))
        let parser = FeedPushParser(options: FeedReader.Options(recovery: recovery)) { _, _ in }
        for byte in bytes { try parser.feed([byte]) }
        #expect(try parser.finish().title?.value == "Café \u{2019}s")
    }

    @Test(
        "what may be a cut declaration, and what is not",
        arguments: [
            ("<", true), ("<?xm", true), ("<?xml", true), (#"<?xml version="1.0""#, true),
            (#"<?xml version="1.0"?>"#, false), ("<rss", false), ("<?xm-stylesheet", false),
            ("<?xml" + String(repeating: " ", count: 1100), false)
        ] as [(String, Bool)])
    func mayBeCut(text: String, cut: Bool) {
        #expect(Array(text.utf8).withUnsafeBufferPointer { FeedSniffer.declarationMayBeCut($0) } == cut)
    }
}
