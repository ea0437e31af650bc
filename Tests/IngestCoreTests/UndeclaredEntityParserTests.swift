import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTestSupport

/// Both streaming parsers refuse a reference in an attribute value to an entity
/// that only an unread external DTD or parameter entity might declare, whatever the
/// chunking and the encoding (issue 15, item 14); one in content they keep as
/// written, `&ext;` (issue 27, item 11: see KnownDTDEntityTests).
@Suite struct UndeclaredEntityParserTests {
    /// A parser and the size of the pieces it is fed.
    struct Parser: CustomStringConvertible, Sendable {
        var libxml2: Bool
        var chunkSize: Int
        var description: String { "\(libxml2 ? "libxml2" : "expat"), chunks of \(chunkSize)" }
        var parser: any StreamingParser { parser(onWarning: nil) }
        /// The parser, telling `onWarning` what it reads past.
        func parser(onWarning: ParseWarningHandler?) -> any StreamingParser {
            libxml2
                ? LibXML2Parser(chunkSize: chunkSize, onWarning: onWarning)
                : ExpatParser(chunkSize: chunkSize, onWarning: onWarning)
        }
    }

    static let parsers = [false, true].flatMap { libxml2 in
        [1, defaultChunkSize].map { Parser(libxml2: libxml2, chunkSize: $0) }
    }

    func failure(_ bytes: [UInt8], _ parser: any StreamingParser) -> IngestError? {
        #expect(throws: IngestError.self) { try parser.parse(bytes: bytes, into: EventLog()) }
    }

    func events(_ bytes: [UInt8], _ parser: any StreamingParser) throws -> [String] {
        let log = EventLog()
        try parser.parse(bytes: bytes, into: log)
        return log.events
    }

    @Test("In content, with an external DTD: kept as written", arguments: parsers)
    func externalDTDContent(_ which: Parser) throws {
        let xml = #"<!DOCTYPE r SYSTEM "x.dtd"><r><a>x&ext;y</a></r>"#
        #expect(try events(Array(xml.utf8), which.parser) == ["<r>", "<a>", "x&ext;y", "</a>", "</r>"])
    }

    @Test("In an attribute, with an external DTD", arguments: parsers)
    func externalDTD(_ which: Parser) throws {
        let parser = which.parser
        for body in [#"<r><a k="x&ext;y"/></r>"#, #"<r><a k="&amp;&#38;" j='&ext;'/></r>"#] {
            let error = try #require(
                failure(Array(#"<!DOCTYPE r SYSTEM "x.dtd">"#.utf8) + Array(body.utf8), parser), "\(body)")
            #expect(error.kind == .data)
            #expect(
                error.message.hasPrefix(
                    #"entity 'ext' is not declared in the document (the external DTD "x.dtd" may declare it"#),
                "\(body): \(error)")
            #expect(error.position?.line == 1)
        }
    }

    @Test("Declared entities, predefined ones and character references still expand", arguments: parsers)
    func declaredOnesExpand(_ which: Parser) throws {
        let parser = which.parser
        let xml = #"<!DOCTYPE r SYSTEM "x.dtd" [<!ENTITY e "E">]><r><a k="&e;&amp;&#65;">&e;&lt;</a></r>"#
        #expect(try events(Array(xml.utf8), parser) == ["<r>", "<a k=E&A>", "E<", "</a>", "</r>"])
    }

    @Test("After a parameter entity reference", arguments: parsers)
    func parameterEntity(_ which: Parser) throws {
        let parser = which.parser
        let xml = #"<!DOCTYPE r [<!ENTITY % p SYSTEM "p.ent"> %p;]><r><a k="&ext;"/></r>"#
        let error = try #require(failure(Array(xml.utf8), parser))
        #expect(
            error.message.contains("entity 'ext' is not declared in the document (a parameter entity may declare it"),
            "\(error)")
    }

    @Test("A UTF-16 document's attribute", arguments: parsers)
    func utf16Attribute(_ which: Parser) throws {
        let parser = which.parser
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><!DOCTYPE r SYSTEM \"x.dtd\"><r><a k=\"Ω&ext;\"/></r>"
        let bytes: [UInt8] = [0xFF, 0xFE] + xml.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let error = try #require(failure(bytes, parser))
        #expect(error.message.contains("entity 'ext' is not declared"), "\(error)")
    }

    @Test("Without any unread declarations an undeclared entity is malformed, as always", arguments: parsers)
    func plainUndeclared(_ which: Parser) throws {
        let parser = which.parser
        let error = try #require(failure(Array("<r>&nope;</r>".utf8), parser))
        #expect(error.kind == .data)
    }
}
