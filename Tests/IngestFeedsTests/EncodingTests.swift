import Foundation
@testable import IngestFeeds
import IngestCore
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
