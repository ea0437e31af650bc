import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

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
        let log = try events(
            #"<!DOCTYPE a [<!ENTITY co "Smith &amp; Sons">]><a><![CDATA[<b>x</b>]]> &co; &#233;&#x1F600;</a>"#)
        #expect(log.events == ["<a>", "<b>x</b> Smith & Sons é😀", "</a>"])
    }

    @Test func iconvTablesDescribeSingleAndMultiByteEncodings() throws {
        let latin2 = try ExpatIconvEncoding(name: "ISO-8859-2")
        #expect(latin2.map[0x41] == 0x41)
        #expect(latin2.map[0xA3] == 0x141)  // Ł
        let shiftJIS = try ExpatIconvEncoding(name: "Shift_JIS")
        #expect(shiftJIS.map[0x93] == -2)  // lead byte of 日
        #expect(shiftJIS.map[0xB1] == 0xFF71)  // half-width ｱ, one byte
        let eucJP = try ExpatIconvEncoding(name: "EUC-JP")
        #expect(eucJP.map[0x8F] == -3)  // JIS X 0212, three bytes
        #expect(eucJP.map[0x8E] == -2)  // half-width kana, two bytes
        #expect(eucJP.map[0xB0] == -2)
    }

    @Test func iconvRefusesWhatAByteTableCannotCarryAndWhatItDoesNotKnow() {
        #expect(throws: ExpatIconvEncoding.Refusal.notATable) { try ExpatIconvEncoding(name: "ISO-2022-JP") }
        #expect(throws: ExpatIconvEncoding.Refusal.notATable) { try ExpatIconvEncoding(name: "UTF-7") }
        #expect(throws: ExpatIconvEncoding.Refusal.unknown) { try ExpatIconvEncoding(name: "x-no-such-charset") }
        #expect(throws: ExpatIconvEncoding.Refusal.unknown) { try ExpatIconvEncoding(name: "../../etc/passwd") }
        #expect(throws: ExpatIconvEncoding.Refusal.unknown) { try ExpatIconvEncoding(name: "") }
    }

    @Test func multiByteCharactersSplitAcrossChunksDecode() throws {
        // <a b="日本ｱ">丂</a>… in Shift_JIS (日本ｱ) and EUC-JP (丂), bytes as the standards give them.
        let shiftJIS: [UInt8] =
            Array(#"<?xml version="1.0" encoding="Shift_JIS"?><a b=""#.utf8) + [0x93, 0xFA, 0x96, 0x7B, 0xB1]
            + Array("\">".utf8) + [0x93, 0xFA] + Array("</a>".utf8)
        let eucJP: [UInt8] =
            Array(#"<?xml version="1.0" encoding="EUC-JP"?><a>"#.utf8) + [0x8F, 0xB0, 0xA1] + Array("</a>".utf8)
        for size in [1, 2, 3, 5, 64] {
            let log = EventLog()
            try ExpatParser(chunkSize: size).parse(bytes: shiftJIS, into: log)
            #expect(log.events == ["<a b=日本ｱ>", "日", "</a>"], "chunk size \(size)")
            let euc = EventLog()
            try ExpatParser(chunkSize: size).parse(bytes: eucJP, into: euc)
            #expect(euc.events == ["<a>", "丂", "</a>"], "chunk size \(size)")
        }
    }

    @Test func textSplitAcrossChunksIsDeliveredWhole() throws {
        let xml = "<a><b>Łukasz Dvořák 田中 Смирнов</b></a>"
        for size in [1, 2, 3, 7] {
            #expect(
                try events(xml, chunkSize: size).events == ["<a>", "<b>", "Łukasz Dvořák 田中 Смирнов", "</b>", "</a>"])
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
