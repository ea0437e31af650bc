import Testing
@testable import IngestKit

@Suite struct ExpatParserTests {
    func events(_ xml: String, chunkSize: Int = defaultChunkSize) throws -> EventLog {
        let log = EventLog()
        try ExpatParser(chunkSize: chunkSize).parse(bytes: Array(xml.utf8), into: log)
        return log
    }

    func failure(_ xml: String) -> IngestError? {
        #expect(throws: IngestError.self) { _ = try events(xml) }
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

    @Test func namespacesAreReportedWithPrefixAndURI() throws {
        let log = try events(#"<feed xmlns="urn:atom" xmlns:dc="urn:dc"><dc:title>T</dc:title></feed>"#)
        #expect(log.events == ["<feed{urn:atom}>", "<dc:title{urn:dc}>", "T", "</dc:title>", "</feed>"])
    }

    @Test func cdataEntitiesAndCharacterReferencesBecomeText() throws {
        let log = try events(#"<!DOCTYPE a [<!ENTITY co "Smith &amp; Sons">]><a><![CDATA[<b>x</b>]]> &co; &#233;&#x1F600;</a>"#)
        #expect(log.events == ["<a>", "<b>x</b> Smith & Sons é😀", "</a>"])
    }

    @Test func textSplitAcrossChunksIsDeliveredWhole() throws {
        let xml = "<a><b>Łukasz Dvořák 田中 Смирнов</b></a>"
        for size in [1, 2, 3, 7] {
            #expect(try events(xml, chunkSize: size).events == ["<a>", "<b>", "Łukasz Dvořák 田中 Смирнов", "</b>", "</a>"])
        }
    }

    @Test func malformedInputGivesLineColumnAndReason() {
        let error = failure("<people>\n  <person>\n    <firstName>Matt</lastName>\n")
        #expect(error?.position?.line == 3)
        #expect(error?.position?.column == 22)
        #expect(error?.message == "mismatched tag")
        #expect(error?.kind == .data)
    }

    @Test func emptyInputIsMalformed() {
        #expect(failure("")?.message == "no element found")
    }

    @Test func truncatedInputIsMalformed() {
        #expect(failure("<a><b>text")?.kind == .data)
    }

    @Test func externalEntitiesAreNeverLoaded() {
        let xml = #"<!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><a>&xxe;</a>"#
        let error = failure(xml)
        #expect(error?.message.contains("external entity") == true)
        #expect(error?.message.contains("root:") == false)
    }

    @Test func externalParameterEntitiesAndDTDsAreNotFetched() throws {
        // With parameter entity parsing off, the external DTD is never requested.
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

    @Test func aHandlerErrorStopsTheParseWithItsPosition() {
        final class Refuser: ParseEventReceiver {
            func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
                if name.qualified == "bad" { throw IngestError(.data, "no bad elements") }
            }
            func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {}
            func endElement(_ name: Name, at position: SourcePosition) throws {}
        }
        let error = #expect(throws: IngestError.self) {
            try ExpatParser().parse(bytes: Array("<a>\n<ok/>\n  <bad/></a>".utf8), into: Refuser())
        }
        #expect(error?.position?.line == 3)
        #expect(error?.position?.column == 3)
        #expect(error?.description == "<memory>:3:3: no bad elements")
    }
}
