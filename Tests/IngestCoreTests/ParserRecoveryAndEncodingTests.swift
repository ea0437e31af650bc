import Testing
import IngestCore
import IngestParsers
import IngestTestSupport

/// libxml2's recovering mode and the encoding override of the push parsers: what a
/// feed reader needs for documents from the wild and for an HTTP charset (RFC 7303).
@Suite("Parsers: recovering mode, and an encoding that overrides the declaration")
struct ParserRecoveryAndEncodingTests {
    /// Pushes `bytes` in pieces of `piece` bytes into `parser`, then finishes it.
    func push(_ bytes: [UInt8], into parser: any PushParser, piece: Int = 7) throws {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + piece, bytes.count)
            try parser.feed(bytes[offset..<end])
            offset = end
        }
        try parser.finish()
    }

    @Test("recovering: an undeclared prefix, a bare & and a missing end tag are read on, the first error kept")
    func recovers() throws {
        let xml = "<rss>\n<item><content:encoded>a & b</content:encoded><title>t</title></item>\n<item><title>u</rss>"
        let log = EventLog()
        let parser = try LibXML2PushParser(receiver: log, recovers: true, displayName: "wild.rss")
        try push(Array(xml.utf8), into: parser)
        // The undeclared prefix stays in the local name, with no namespace.
        #expect(log.events.prefix(4) == ["<rss>", "\n", "<item>", "<content:encoded>"])
        #expect(log.events.contains("<title>"))
        #expect(log.events.contains("u"))
        let error = try #require(parser.firstRecoveredError)
        #expect(error.kind == .data)
        #expect(error.file == "wild.rss")
        #expect(error.position?.line == 2)
    }

    @Test("not recovering, the same document fails at its first error; a well-formed one has no recovered error")
    func strictByDefault() throws {
        let bad = Array("<rss><p:x/></rss>".utf8)
        #expect(throws: IngestError.self) { try push(bad, into: LibXML2PushParser(receiver: EventLog())) }
        #expect(throws: IngestError.self) {
            try LibXML2Parser(recovers: false).parse(bytes: bad, into: EventLog())
        }
        let log = EventLog()
        try LibXML2Parser(recovers: true).parse(bytes: bad, into: log)
        #expect(log.events == ["<rss>", "<p:x>", "</p:x>", "</rss>"])

        let good = try LibXML2PushParser(receiver: EventLog(), recovers: true)
        try push(Array("<a>&amp;</a>".utf8), into: good)
        #expect(good.firstRecoveredError == nil)
    }

    @Test("recovering, entity references after the first error still expand")
    func entitiesAfterAnError() throws {
        let log = EventLog()
        let parser = try LibXML2PushParser(receiver: log, recovers: true)
        try push(Array("<a><b>x & y</b><c>&lt;&amp;&#233;</c></a>".utf8), into: parser)
        #expect(log.events.contains("<&é"))
        #expect(parser.firstRecoveredError != nil)
    }

    /// `Café` in ISO-8859-1 (é = 0xE9) under a declaration that says UTF-8.
    static let latin1DeclaredUTF8: [UInt8] =
        Array(#"<?xml version="1.0" encoding="UTF-8"?><t>Caf"#.utf8) + [0xE9] + Array("</t>".utf8)

    @Test("the given encoding overrides the declaration, in Expat and libxml2, pushed in pieces", arguments: [1, 3, 64])
    func encodingOverrides(piece: Int) throws {
        let expat = EventLog()
        try push(Self.latin1DeclaredUTF8, into: ExpatPushParser(receiver: expat, encoding: "ISO-8859-1"), piece: piece)
        #expect(expat.events == ["<t>", "Café", "</t>"])
        let libxml2 = EventLog()
        try push(
            Self.latin1DeclaredUTF8, into: LibXML2PushParser(receiver: libxml2, encoding: "ISO-8859-1"), piece: piece)
        #expect(libxml2.events == ["<t>", "Café", "</t>"])
        // A single-byte table Expat reads through iconv.
        let windows = EventLog()
        let bytes = Array("<t>".utf8) + [0x92] + Array("</t>".utf8)
        try push(bytes, into: ExpatPushParser(receiver: windows, encoding: "windows-1252"), piece: piece)
        #expect(windows.events == ["<t>", "\u{2019}", "</t>"])
        let parsed = EventLog()
        try LibXML2Parser(encoding: "windows-1252").parse(bytes: bytes, into: parsed)
        #expect(parsed.events == ["<t>", "\u{2019}", "</t>"])
    }

    @Test("without an override, the declaration rules: the Latin-1 byte is not UTF-8")
    func declarationRulesByDefault() {
        #expect(throws: IngestError.self) {
            try push(Self.latin1DeclaredUTF8, into: ExpatPushParser(receiver: EventLog()))
        }
    }

    @Test("an encoding nobody knows is a data error naming it")
    func unknownEncoding() throws {
        let error = try #require(throws: IngestError.self) {
            _ = try LibXML2PushParser(receiver: EventLog(), encoding: "x-no-such-charset", displayName: "f.xml")
        }
        #expect(error.kind == .data)
        #expect(error.message.contains("x-no-such-charset"))
        let expat = try #require(throws: IngestError.self) {
            try push(Array("<t/>".utf8), into: ExpatPushParser(receiver: EventLog(), encoding: "x-no-such-charset"))
        }
        #expect(expat.message.contains("x-no-such-charset"))
    }
}
