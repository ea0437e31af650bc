import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

@Suite struct LibXML2ParserTests {
    func events(_ xml: String, chunkSize: Int = defaultChunkSize, huge: Bool = false) throws -> EventLog {
        let log = EventLog()
        try LibXML2Parser(allowsHugeDocuments: huge, chunkSize: chunkSize).parse(bytes: Array(xml.utf8), into: log)
        return log
    }

    func expatEvents(_ xml: String) throws -> EventLog {
        let log = EventLog()
        try ExpatParser().parse(bytes: Array(xml.utf8), into: log)
        return log
    }

    func failure(_ xml: String, huge: Bool = false) -> IngestError? {
        #expect(throws: IngestError.self) { _ = try events(xml, huge: huge) }
    }

    @Test func reportsElementsAttributesAndText() throws {
        let log = try events(#"<a x="1" y="two"><b>hi</b></a>"#)
        #expect(log.events == ["<a x=1 y=two>", "<b>", "hi", "</b>", "</a>"])
    }

    @Test func positionsAreLineAndColumnOfEachStartTag() throws {
        let log = try events("<a>\n  <b/>\n    <c/></a>")
        #expect(log.positions.map(\.line) == [1, 2, 3])
        #expect(log.positions.map(\.column) == [1, 3, 5])
        #expect(log.positions[1].byteOffset == 6)
    }

    @Test func aTagOverSeveralLinesIsPlacedAtItsAngleBracket() throws {
        let log = try events("<a>\n  <b x=\"1\"\n     y=\"2\"/>\n <c\n/></a>")
        #expect(log.positions.map(\.line) == [1, 2, 4])
        #expect(log.positions.map(\.column) == [1, 3, 2])
    }

    @Test func namesAreTheSameAsExpats() throws {
        let xml = #"""
            <feed xmlns="urn:atom" xmlns:dc="urn:dc" xml:lang="en" a="1" dc:b="2"><dc:title>T</dc:title><x xmlns="">y</x></feed>
            """#
        let log = try events(xml)
        #expect(
            log.events == [
                "<feed{urn:atom} xml:lang=en a=1 dc:b=2>", "<dc:title{urn:dc}>", "T", "</dc:title>",
                "<x>", "y", "</x>", "</feed>"
            ])
        #expect(log.events == (try expatEvents(xml)).events)
    }

    @Test func namespaceDeclarationsAreNotAttributes() throws {
        let log = try events(#"<a xmlns:p="urn:p" xmlns="urn:d" p:k="v"/>"#)
        #expect(log.events == ["<a{urn:d} p:k=v>", "</a>"])
    }

    @Test func internedNamesCarryPrefixLocalAndURI() throws {
        final class Names: ParseEventReceiver {
            var seen: [Name] = []
            func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
                seen.append(name)
                seen.append(contentsOf: attributes.map(\.name))
            }
            func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {}
            func endElement(_ name: Name, at position: SourcePosition) throws {}
        }
        let names = Names()
        try LibXML2Parser().parse(bytes: Array(#"<p:a xmlns:p="urn:p" p:k="v"><p:a/></p:a>"#.utf8), into: names)
        #expect(names.seen.count == 3)
        #expect(names.seen[0] === names.seen[2], "the same name is one interned object")
        #expect(names.seen[0].qualified == "p:a" && names.seen[0].local == "a" && names.seen[0].namespaceURI == "urn:p")
        #expect(names.seen[1].qualified == "p:k" && names.seen[1].namespaceURI == "urn:p")
    }

    @Test func defaultedAttributesFollowTheSpecifiedOnesAsInExpat() throws {
        let xml =
            #"<!DOCTYPE a [<!ATTLIST a d CDATA "dflt" t NMTOKENS "  x   y "><!ATTLIST b t NMTOKENS #IMPLIED>]><a s="1"><b t="  p  q "/></a>"#
        let log = try events(xml)
        #expect(log.events == ["<a s=1 d=dflt t=x y>", "<b t=p q>", "</b>", "</a>"])
        #expect(log.events == (try expatEvents(xml)).events)
    }

    @Test func cdataEntitiesAndCharacterReferencesBecomeText() throws {
        let log = try events(
            #"<!DOCTYPE a [<!ENTITY co "Smith &amp; Sons">]><a><![CDATA[<b>x</b>]]> &co; &#233;&#x1F600;</a>"#)
        #expect(log.events == ["<a>", "<b>x</b> Smith & Sons é😀", "</a>"])
    }

    @Test func internalEntitiesWithMarkupGiveExpatsEventsEveryTime() throws {
        let xml = #"<!DOCTYPE a [<!ENTITY row "<r k='1'>v &amp; w</r>">]><a>&row;&row;<x>&row;</x></a>"#
        let log = try events(xml)
        #expect(
            log.events == [
                "<a>", "<r k=1>", "v & w", "</r>", "<r k=1>", "v & w", "</r>",
                "<x>", "<r k=1>", "v & w", "</r>", "</x>", "</a>"
            ])
        #expect(log.events == (try expatEvents(xml)).events)
    }

    @Test func referencesInAttributeValuesAreExpandedAsInExpat() throws {
        let xml = #"""
            <!DOCTYPE a [<!ENTITY e "x&#13;&#10;y"><!ENTITY n "&e; &amp; &#38;#60;"><!ATTLIST a t NMTOKENS #IMPLIED>]>\#
            <a p="Smith &amp; Sons &lt;&#38;&#x41;&#13;" q="[&n;]" t="  &e;   z "/>
            """#
        let log = try events(xml)
        #expect(log.events == ["<a p=Smith & Sons <&A\r q=[x  y & <] t=x y z>", "</a>"])
        #expect(log.events == (try expatEvents(xml)).events)
    }

    @Test func namesOnlyTheFifthEditionAllowsAreLibxml2sAlone() throws {
        // U+0132 (Ĳ) became a name character in XML 1.0's 5th edition; Expat keeps the
        // older tables. The one known difference in what the two parsers accept.
        let xml = "<a><\u{132}x>1</\u{132}x></a>"
        #expect(try events(xml).events == ["<a>", "<\u{132}x>", "1", "</\u{132}x>", "</a>"])
        #expect(throws: IngestError.self) { try expatEvents(xml) }
    }

    @Test func aVersionOtherThan1_0IsReadAsExpatReadsIt() throws {
        #expect(try events(#"<?xml version="1.1"?><a/>"#).events == ["<a>", "</a>"])
    }

    @Test func textSplitAcrossChunksIsDeliveredWhole() throws {
        let xml = "<a><b>Łukasz Dvořák 田中 Смирнов</b><c k=\"ü\">&amp;<![CDATA[]]]]></c></a>"
        for size in [1, 2, 3, 7, 64] {
            #expect(
                try events(xml, chunkSize: size).events
                    == ["<a>", "<b>", "Łukasz Dvořák 田中 Смирнов", "</b>", "<c k=ü>", "&]]", "</c>", "</a>"])
        }
    }

    @Test func lineEndsAreNormalisedAsInExpat() throws {
        let xml = "<a>x\r\ny\rz<![CDATA[\r\n]]><b v=\"1\r\n2\"/></a>"
        #expect(try events(xml).events == (try expatEvents(xml)).events)
        #expect(try events(xml).events == ["<a>", "x\ny\nz\n", "<b v=1 2>", "</b>", "</a>"])
    }

    @Test func otherEncodingsAreConvertedToUTF8() throws {
        let latin1: [UInt8] =
            Array(#"<?xml version="1.0" encoding="windows-1252"?><a>caf"#.utf8) + [0xE9, 0x20, 0x80]
            + Array("</a>".utf8)
        let log = EventLog()
        try LibXML2Parser().parse(bytes: latin1, into: log)
        #expect(log.events == ["<a>", "café €", "</a>"])
    }

    @Test func anUnknownEncodingIsMalformedAndNamed() {
        let error = failure(#"<?xml version="1.0" encoding="X-NO-SUCH-ENCODING"?><a/>"#)
        #expect(error?.kind == .data)
        #expect(error?.message.contains("X-NO-SUCH-ENCODING") == true, "\(String(describing: error))")
    }

    @Test func malformedInputGivesLineColumnAndReason() {
        let error = failure("<people>\n  <person>\n    <firstName>Matt</lastName>\n")
        #expect(error?.position?.line == 3)
        #expect(error?.position?.column == 31)
        #expect(error?.message == "Opening and ending tag mismatch: firstName line 3 and lastName")
        #expect(error?.kind == .data)
        #expect(error?.description == "<memory>:3:31: Opening and ending tag mismatch: firstName line 3 and lastName")
    }

    @Test func messagesAreOneLine() {
        let error = #expect(throws: IngestError.self) {
            try LibXML2Parser().parse(bytes: Array("<a>caf".utf8) + [0xE9] + Array("</a>".utf8), into: EventLog())
        }
        #expect(error?.message.contains("\n") == false)
        #expect(error?.message.hasPrefix("Input is not proper UTF-8") == true, "\(String(describing: error))")
    }

    @Test func emptyAndTruncatedInputsAreMalformed() {
        #expect(failure("")?.kind == .data)
        #expect(failure("<a><b>text")?.kind == .data)
        #expect(failure("<a/><b/>")?.kind == .data)
    }

    @Test func aTruncatedInputSaysWhichElementIsOpen() {
        let error = failure("<a>\n<b>x</b>\n<c>y")
        #expect(
            error?.message == "the input ends inside <c> (libxml2: Extra content at the end of the document)",
            "\(String(describing: error))")
    }

    @Test func unboundPrefixesAreMalformedAsInExpat() {
        #expect(failure("<p:a/>")?.message.contains("prefix p") == true)
        #expect(failure(#"<a xmlns:p="urn:p" p:x="1" xmlns:q="urn:p" q:x="2"/>"#)?.kind == .data)
    }

    @Test func warningsDoNotFailTheParse() throws {
        // libxml2 warns about a relative namespace URI and an unknown version.
        let log = try events(#"<?xml version="1.1"?><a xmlns="relative"><b/></a>"#)
        #expect(log.events == ["<a{relative}>", "<b{relative}>", "</b>", "</a>"])
    }

    @Test func externalEntitiesAreNeverLoaded() {
        let xml = #"<!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><a>&xxe;</a>"#
        let error = failure(xml)
        #expect(
            error?.message == #"external entity "file:///etc/passwd" refused: ingest never loads external entities"#)
        #expect(error?.message.contains("root:") == false)
    }

    @Test func externalEntitiesInAttributesAreRefused() {
        let error = failure(#"<!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><a k="&xxe;"/>"#)
        #expect(error?.kind == .data)
    }

    @Test func aDeclaredButUnusedExternalEntityIsFine() throws {
        let log = try events(#"<!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><a>ok</a>"#)
        #expect(log.events == ["<a>", "ok", "</a>"])
    }

    @Test func externalDTDsAreNotFetched() throws {
        let log = try events(#"<!DOCTYPE a SYSTEM "file:///etc/passwd"><a>ok</a>"#)
        #expect(log.events == ["<a>", "ok", "</a>"])
    }

    @Test func entityAmplificationIsStopped() {
        var xml = "<!DOCTYPE a [<!ENTITY e0 \"lol lol lol lol lol lol lol lol lol lol\">"
        for level in 1...9 {
            xml += "<!ENTITY e\(level) \"" + String(repeating: "&e\(level - 1);", count: 10) + "\">"
        }
        xml += "]><a>&e9;</a>"
        #expect(failure(xml)?.kind == .data)
    }

    @Test func crLFSplitAcrossCDATAPiecesIsOneLineEnd() throws {
        // libxml2 hands a long CDATA section over in pieces of about 300 bytes.
        for padding in 290...310 {
            let body = String(repeating: "x", count: padding) + "\r\n" + String(repeating: "y", count: 400) + "\r"
            let xml = "<a><![CDATA[" + body + "]]></a>"
            let expected = String(repeating: "x", count: padding) + "\n" + String(repeating: "y", count: 400) + "\n"
            #expect(try events(xml, chunkSize: 97).events == ["<a>", expected, "</a>"])
        }
    }

    @Test func attributeValuesOverTheLimitNeedHuge() throws {
        let xml = "<a v=\"" + String(repeating: "v", count: 10_000_001) + "\"/>"
        #expect(failure(xml)?.kind == .data)
        #expect(try events(xml, huge: true).events.count == 2)
    }

    @Test func deepNestingIsLeftToParseLimits() throws {
        // libxml2's push parser does not count depth itself; HandlerStack does.
        let xml = String(repeating: "<a>", count: 1_001) + String(repeating: "</a>", count: 1_001)
        final class Nested: ElementHandler {
            func handler(forChild element: ElementStart) -> (any ElementHandler)? { Nested() }
        }
        let stack = HandlerStack(root: Nested())
        let error = #expect(throws: IngestError.self) {
            try LibXML2Parser().parse(bytes: Array(xml.utf8), into: stack)
        }
        #expect(error?.message.contains("deeper than 1000") == true, "\(String(describing: error))")
    }

    @Test func aHandlerErrorStopsTheParseWithItsPosition() {
        final class Refuser: ParseEventReceiver {
            var after = 0
            func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
                if name.qualified == "bad" { throw IngestError(.data, "no bad elements") }
                if name.qualified == "late" { after += 1 }
            }
            func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {}
            func endElement(_ name: Name, at position: SourcePosition) throws {}
        }
        let refuser = Refuser()
        let error = #expect(throws: IngestError.self) {
            try LibXML2Parser().parse(bytes: Array("<a>\n<ok/>\n  <bad/><late/></a>".utf8), into: refuser)
        }
        #expect(error?.description == "<memory>:3:3: no bad elements")
        #expect(refuser.after == 0, "no event after the error")
    }

    @Test func importerPicksTheParserItIsAskedFor() throws {
        let input = try InputFile(path: folksURL.path)
        #expect(Importer().parser(for: input, format: .xml) is ExpatParser)
        let chosen = Importer(options: .init(xmlParser: .libxml2, allowsHugeDocuments: true)).parser(
            for: input, format: .xml)
        #expect((chosen as? LibXML2Parser)?.allowsHugeDocuments == true)
        #expect(Importer(options: .init(xmlParser: .libxml2)).parser(for: input, format: .json) is JSONParser)
    }

    @Test func importerRunsFolksThroughLibxml2() throws {
        let sink = CollectingSink()
        try Importer(options: .init(xmlParser: .libxml2)).read(InputFile(path: folksURL.path), into: sink)
        #expect(sink.records.map { $0.order } == Array(repeating: ["firstName", "lastName"], count: 3))
        #expect(sink.records.first?.table == "people")
    }

    @Test func recordsMatchExpatsThroughTheMapping() throws {
        let xml =
            #"<!DOCTYPE r [<!ENTITY n "Neu&#98;urg">]><r><p id="1"><f>Matt</f><l>&n;</l><t><g>a</g><g>b</g></t></p><p id="2"><![CDATA[x<y]]></p></r>"#
        let expat = CollectingSink(), libxml2 = CollectingSink()
        for (sink, parser) in [(expat, ExpatParser() as any StreamingParserForBytes), (libxml2, LibXML2Parser())] {
            let mapping = AutomaticDocumentMapping(recordPath: nil, sink: sink)
            try parser.parse(bytes: Array(xml.utf8), into: HandlerStack(root: try mapping.makeRootHandler()))
            try mapping.checkMatched()
        }
        #expect(expat.records.count == 2)
        #expect(libxml2.records == expat.records)
    }
}

/// Both parsers' in-memory entry point, so a test can loop over them.
protocol StreamingParserForBytes {
    func parse(bytes: [UInt8], into receiver: any ParseEventReceiver) throws
}

extension ExpatParser: StreamingParserForBytes {
    func parse(bytes: [UInt8], into receiver: any ParseEventReceiver) throws {
        try parse(bytes: bytes, into: receiver, displayName: "<memory>")
    }
}

extension LibXML2Parser: StreamingParserForBytes {
    func parse(bytes: [UInt8], into receiver: any ParseEventReceiver) throws {
        try parse(bytes: bytes, into: receiver, displayName: "<memory>")
    }
}
